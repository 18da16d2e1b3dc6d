#ifndef FLIPBOOK_CLINUX_SHIM_H
#define FLIPBOOK_CLINUX_SHIM_H

#include <linux/falloc.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <sys/types.h>
// Extended attributes (flistxattr, fgetxattr, fsetxattr), which Swift's Glibc module does not include:
// a replaced movie keeps the old file's (its ACL among them).
#include <sys/xattr.h>
#include <unistd.h>

// mallopt and its M_* constants live in <malloc.h>, which Swift's Glibc module does not include.
static inline int flipbook_set_malloc_thresholds(int mmap_threshold, int trim_threshold, int arenas) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) && mallopt(M_TRIM_THRESHOLD, trim_threshold)
        && mallopt(M_ARENA_MAX, arenas);
}

// glibc declares fallocate only under _GNU_SOURCE, which Swift's Glibc module is built without, so
// the system call is made directly; FALLOC_FL_INSERT_RANGE moves a file's later blocks to open a gap.
static inline int flipbook_fallocate_insert_range(int fd, long long offset, long long length) {
    return (int)syscall(SYS_fallocate, fd, FALLOC_FL_INSERT_RANGE, (off_t)offset, (off_t)length);
}

// glibc declares copy_file_range only under _GNU_SOURCE too, so the system call is made directly: the
// kernel copies between the files without a trip through user memory (a reflink or a server-side
// copy where the file system can). Offsets are passed by value and advanced by the caller.
static inline long long flipbook_copy_file_range(int fd_in, long long offset_in, int fd_out, long long length) {
    loff_t in = (loff_t)offset_in;
    return (long long)syscall(SYS_copy_file_range, fd_in, &in, fd_out, (loff_t *)0, (size_t)length, 0u);
}

#endif
