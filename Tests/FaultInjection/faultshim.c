// faultshim: an LD_PRELOAD library that fails the n-th call of one file operation, after SQLite's
// I/O-error tests, so the tests can make `flipbook` meet a full disk or a failing device without
// root. Built by the tests with `cc -shared -fPIC -o faultshim.so faultshim.c -ldl`.
//
// Configured by the environment of the process it is loaded into:
//   FAULT_OP      write | pwrite | copy_file_range | fsync | fdatasync | fallocate | rename | link | open
//                 | close | fchmod | fchown (copy_file_range counts the calls whose destination is on the folder)
//   FAULT_N       the call to fail, counting from 1 (0 or unset: count only, fail nothing)
//   FAULT_PERSIST when set, every later call fails too, as on a disk that stays full
//   FAULT_ERRNO   EIO | ENOSPC | EFBIG | EACCES | EROFS | EPERM (default EIO)
//   FAULT_DIR     only calls on this folder or a file in it count (an absolute path, no trailing /)
//   FAULT_NO_INSERT_RANGE  when set, every fallocate fails with EOPNOTSUPP, as on tmpfs, without
//                 being counted: Flipbook then copies the media behind the index instead
//   FAULT_NO_COPY_RANGE  when set, every copy_file_range fails with EXDEV, as between two file
//                 systems on an older kernel, without being counted: Flipbook then reads and writes
//   FAULT_REPORT  a file that gets one line at exit: "OP calls=K failed=N|0 path=PATH" (the path the
//                 failed call was about)
//
// Each operation covers its libc variants: pwrite and pwrite64; fallocate, fallocate64 and
// syscall(SYS_fallocate, ...) (Flipbook calls the system call directly because glibc declares
// fallocate only under _GNU_SOURCE); copy_file_range and syscall(SYS_copy_file_range, ...); rename, renameat and renameat2; link and linkat; open,
// open64, openat, openat64 and their fortified __*_2 forms. A failed call does nothing and returns
// -1 with errno set, except close, which closes the descriptor and then reports the error (as NFS
// does when a deferred write fails).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *fault_op;
static long fault_n;
static int fault_errno = EIO;
static const char *fault_dir;
static size_t fault_dir_length;
static long calls;
static long failed;
static int reporting;
static int no_insert_range;
static int no_copy_range;
static int persist;
// The path the last watched call was about (per thread), and the one that was failed.
static __thread char last_path[PATH_MAX];
static char failed_path[PATH_MAX];

__attribute__((constructor)) static void fault_setup(void) {
    fault_op = getenv("FAULT_OP");
    const char *n = getenv("FAULT_N");
    fault_n = n ? atol(n) : 0;
    const char *name = getenv("FAULT_ERRNO");
    if (name) {
        if (strcmp(name, "ENOSPC") == 0) fault_errno = ENOSPC;
        else if (strcmp(name, "EFBIG") == 0) fault_errno = EFBIG;
        else if (strcmp(name, "EACCES") == 0) fault_errno = EACCES;
        else if (strcmp(name, "EROFS") == 0) fault_errno = EROFS;
        else if (strcmp(name, "EPERM") == 0) fault_errno = EPERM;
        else fault_errno = EIO;
    }
    no_insert_range = getenv("FAULT_NO_INSERT_RANGE") != NULL;
    no_copy_range = getenv("FAULT_NO_COPY_RANGE") != NULL;
    persist = getenv("FAULT_PERSIST") != NULL;
    fault_dir = getenv("FAULT_DIR");
    fault_dir_length = fault_dir ? strlen(fault_dir) : 0;
}

__attribute__((destructor)) static void fault_report(void) {
    const char *path = getenv("FAULT_REPORT");
    if (!path || !fault_op) return;
    reporting = 1;
    FILE *file = fopen(path, "w");
    if (!file) return;
    fprintf(file, "%s calls=%ld failed=%ld path=%s\n", fault_op, __atomic_load_n(&calls, __ATOMIC_SEQ_CST),
            __atomic_load_n(&failed, __ATOMIC_SEQ_CST), failed_path);
    fclose(file);
}

// Whether `path` is the watched folder or inside it; every path counts when no folder is set.
static int under_dir(const char *path) {
    snprintf(last_path, sizeof last_path, "%s", path ? path : "");
    if (!fault_dir) return 1;
    if (!path || strncmp(path, fault_dir, fault_dir_length) != 0) return 0;
    return path[fault_dir_length] == '\0' || path[fault_dir_length] == '/';
}

// The absolute path of `path` as seen from `dirfd` (AT_FDCWD: the working folder).
static int path_under_dir(int dirfd, const char *path) {
    if (!path) return 0;
    if (path[0] == '/' || !fault_dir) return under_dir(path);
    char base[PATH_MAX];
    if (dirfd == AT_FDCWD) {
        if (!getcwd(base, sizeof base)) return 0;
    } else {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
        ssize_t length = readlink(link, base, sizeof base - 1);
        if (length < 0) return 0;
        base[length] = '\0';
    }
    char full[2 * PATH_MAX + 2];
    snprintf(full, sizeof full, "%s/%s", base, path);
    return under_dir(full);
}

// Whether the file open as `fd` is the watched folder or inside it.
static int fd_under_dir(int fd) {
    char link[64], target[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    if (length < 0) return fault_dir == NULL;
    target[length] = '\0';
    return under_dir(target);
}

// Whether calls of `op` are being counted.
static int counting(const char *op) {
    return fault_op && !reporting && strcmp(op, fault_op) == 0;
}

// Counts a call of the chosen operation; true when this is the call to fail (errno is then set).
static int fail_now(void) {
    long count = __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
    if (fault_n <= 0 || count < fault_n || (count > fault_n && !persist)) return 0;
    if (count == fault_n) {
        snprintf(failed_path, sizeof failed_path, "%s", last_path);
        __atomic_store_n(&failed, count, __ATOMIC_SEQ_CST);
    }
    errno = fault_errno;
    return 1;
}

// Counts a call of `op` when `watched` (evaluated only for the chosen operation) says it is on a
// watched file; true when this is the call to fail.
#define should_fail(op, watched) (counting(op) && (watched) && fail_now())

// libc's own function, looked up once.
#define REAL(name, type) \
    ({ \
        static __typeof__(type) real; \
        if (!real) real = (type)dlsym(RTLD_NEXT, name); \
        real; \
    })

ssize_t write(int fd, const void *buffer, size_t count) {
    if (should_fail("write", fd_under_dir(fd))) return -1;
    return REAL("write", ssize_t (*)(int, const void *, size_t))(fd, buffer, count);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
    if (should_fail("pwrite", fd_under_dir(fd))) return -1;
    return REAL("pwrite", ssize_t (*)(int, const void *, size_t, off_t))(fd, buffer, count, offset);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset) {
    if (should_fail("pwrite", fd_under_dir(fd))) return -1;
    return REAL("pwrite64", ssize_t (*)(int, const void *, size_t, off64_t))(fd, buffer, count, offset);
}

int fchmod(int fd, mode_t mode) {
    if (should_fail("fchmod", fd_under_dir(fd))) return -1;
    return REAL("fchmod", int (*)(int, mode_t))(fd, mode);
}

int fchown(int fd, uid_t owner, gid_t group) {
    if (should_fail("fchown", fd_under_dir(fd))) return -1;
    return REAL("fchown", int (*)(int, uid_t, gid_t))(fd, owner, group);
}

int fsync(int fd) {
    if (should_fail("fsync", fd_under_dir(fd))) return -1;
    return REAL("fsync", int (*)(int))(fd);
}

int fdatasync(int fd) {
    if (should_fail("fdatasync", fd_under_dir(fd))) return -1;
    return REAL("fdatasync", int (*)(int))(fd);
}

// A file system without fallocate's insert-range: the call fails before anything is counted.
#define UNSUPPORTED_FALLOCATE() \
    do { \
        if (no_insert_range) { \
            errno = EOPNOTSUPP; \
            return -1; \
        } \
    } while (0)

int fallocate(int fd, int mode, off_t offset, off_t length) {
    UNSUPPORTED_FALLOCATE();
    if (should_fail("fallocate", fd_under_dir(fd))) return -1;
    return REAL("fallocate", int (*)(int, int, off_t, off_t))(fd, mode, offset, length);
}

int fallocate64(int fd, int mode, off64_t offset, off64_t length) {
    UNSUPPORTED_FALLOCATE();
    if (should_fail("fallocate", fd_under_dir(fd))) return -1;
    return REAL("fallocate64", int (*)(int, int, off64_t, off64_t))(fd, mode, offset, length);
}

// Copies between two files: the uncounted EXDEV of FAULT_NO_COPY_RANGE, else the chosen fault when
// the destination is on the folder.
static int copy_range_fails(int fd_out) {
    if (no_copy_range) {
        errno = EXDEV;
        return 1;
    }
    return should_fail("copy_file_range", fd_under_dir(fd_out));
}

ssize_t copy_file_range(int fd_in, off64_t *off_in, int fd_out, off64_t *off_out, size_t length, unsigned flags) {
    if (copy_range_fails(fd_out)) return -1;
    return REAL("copy_file_range", ssize_t (*)(int, off64_t *, int, off64_t *, size_t, unsigned))(
        fd_in, off_in, fd_out, off_out, length, flags);
}

long syscall(long number, ...) {
    va_list list;
    va_start(list, number);
    long a = va_arg(list, long), b = va_arg(list, long), c = va_arg(list, long);
    long d = va_arg(list, long), e = va_arg(list, long), f = va_arg(list, long);
    va_end(list);
    if (number == SYS_fallocate) UNSUPPORTED_FALLOCATE();
    if (number == SYS_fallocate && should_fail("fallocate", fd_under_dir((int)a))) return -1;
    if (number == SYS_copy_file_range && copy_range_fails((int)c)) return -1;
    return REAL("syscall", long (*)(long, ...))(number, a, b, c, d, e, f);
}

int rename(const char *from, const char *to) {
    if (should_fail("rename", path_under_dir(AT_FDCWD, from) || path_under_dir(AT_FDCWD, to))) return -1;
    return REAL("rename", int (*)(const char *, const char *))(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
    if (should_fail("rename", path_under_dir(fromfd, from) || path_under_dir(tofd, to))) return -1;
    return REAL("renameat", int (*)(int, const char *, int, const char *))(fromfd, from, tofd, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to, unsigned int flags) {
    if (should_fail("rename", path_under_dir(fromfd, from) || path_under_dir(tofd, to))) return -1;
    return REAL("renameat2", int (*)(int, const char *, int, const char *, unsigned int))(
        fromfd, from, tofd, to, flags);
}

int link(const char *from, const char *to) {
    if (should_fail("link", path_under_dir(AT_FDCWD, from) || path_under_dir(AT_FDCWD, to))) return -1;
    return REAL("link", int (*)(const char *, const char *))(from, to);
}

int linkat(int fromfd, const char *from, int tofd, const char *to, int flags) {
    if (should_fail("link", path_under_dir(fromfd, from) || path_under_dir(tofd, to))) return -1;
    return REAL("linkat", int (*)(int, const char *, int, const char *, int))(fromfd, from, tofd, to, flags);
}

// The mode argument is read only when the flags say a file may be created, as open(2) does.
static mode_t mode_argument(int flags, va_list list) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(list, int) : 0;
}

int open(const char *path, int flags, ...) {
    va_list list;
    va_start(list, flags);
    mode_t mode = mode_argument(flags, list);
    va_end(list);
    if (should_fail("open", path_under_dir(AT_FDCWD, path))) return -1;
    return REAL("open", int (*)(const char *, int, ...))(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    va_list list;
    va_start(list, flags);
    mode_t mode = mode_argument(flags, list);
    va_end(list);
    if (should_fail("open", path_under_dir(AT_FDCWD, path))) return -1;
    return REAL("open64", int (*)(const char *, int, ...))(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
    va_list list;
    va_start(list, flags);
    mode_t mode = mode_argument(flags, list);
    va_end(list);
    if (should_fail("open", path_under_dir(dirfd, path))) return -1;
    return REAL("openat", int (*)(int, const char *, int, ...))(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
    va_list list;
    va_start(list, flags);
    mode_t mode = mode_argument(flags, list);
    va_end(list);
    if (should_fail("open", path_under_dir(dirfd, path))) return -1;
    return REAL("openat64", int (*)(int, const char *, int, ...))(dirfd, path, flags, mode);
}

int __open_2(const char *path, int flags) {
    if (should_fail("open", path_under_dir(AT_FDCWD, path))) return -1;
    return REAL("__open_2", int (*)(const char *, int))(path, flags);
}

int __open64_2(const char *path, int flags) {
    if (should_fail("open", path_under_dir(AT_FDCWD, path))) return -1;
    return REAL("__open64_2", int (*)(const char *, int))(path, flags);
}

int __openat_2(int dirfd, const char *path, int flags) {
    if (should_fail("open", path_under_dir(dirfd, path))) return -1;
    return REAL("__openat_2", int (*)(int, const char *, int))(dirfd, path, flags);
}

int __openat64_2(int dirfd, const char *path, int flags) {
    if (should_fail("open", path_under_dir(dirfd, path))) return -1;
    return REAL("__openat64_2", int (*)(int, const char *, int))(dirfd, path, flags);
}

int close(int fd) {
    int watched = fd_under_dir(fd);
    int result = REAL("close", int (*)(int))(fd);
    if (result == 0 && should_fail("close", watched)) return -1;
    return result;
}
