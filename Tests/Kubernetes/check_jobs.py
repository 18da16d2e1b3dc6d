#!/usr/bin/env python3
"""Checks the Kubernetes Jobs of docs/kubernetes/ where no cluster runs: the fields of a batch/v1 Job
that the API server would refuse or that would make the recipe go wrong.

    check_jobs.py FILE...     exit 0 when every file passes; else one line per problem, each naming
                              the file and the field, on standard error, and exit 1

A Job is either a segments Job, whose container runs `flipbook ... --segment auto/N`, or a join Job,
whose container runs `flipbook join`. Checked for every Job: one YAML document; apiVersion batch/v1;
kind Job; a DNS-1123 metadata.name; only JobSpec's own field names (a misspelt field is dropped by
the API server without a word); counts that are whole numbers; restartPolicy Never or OnFailure (a Job
may not use Always); backoffLimitPerIndex only with Indexed and Never; containers with a name, an
image, string commands and mounts of declared volumes at absolute paths. For a segments Job:
completionMode Indexed, completions equal to N, parallelism at most N, and an output named after
JOB_COMPLETION_INDEX. For a join Job: not Indexed, one completion.
"""

import re
import sys

import yaml

JOB_SPEC_FIELDS = {
    "activeDeadlineSeconds", "backoffLimit", "backoffLimitPerIndex", "completionMode", "completions",
    "managedBy", "manualSelector", "maxFailedIndexes", "parallelism", "podFailurePolicy",
    "podReplacementPolicy", "selector", "successPolicy", "suspend", "template", "ttlSecondsAfterFinished",
}
COUNT_FIELDS = ("activeDeadlineSeconds", "backoffLimit", "backoffLimitPerIndex", "completions",
                "maxFailedIndexes", "parallelism", "ttlSecondsAfterFinished")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
SEGMENT = re.compile(r"--segment\s+(\S+)")


def check(path):
    problems = []

    def problem(field, message):
        problems.append(f"{path}: {field}: {message}")

    try:
        with open(path, encoding="utf-8") as file:
            documents = [d for d in yaml.safe_load_all(file) if d is not None]
    except (OSError, yaml.YAMLError) as error:
        return [f"{path}: not readable YAML: {error}".replace("\n", " ")]
    if len(documents) != 1 or not isinstance(documents[0], dict):
        return [f"{path}: want one Job as one YAML mapping, found {len(documents)} document(s)"]
    job = documents[0]

    if job.get("apiVersion") != "batch/v1":
        problem("apiVersion", f"is {job.get('apiVersion')!r}, want 'batch/v1'")
    if job.get("kind") != "Job":
        problem("kind", f"is {job.get('kind')!r}, want 'Job'")
    name = (job.get("metadata") or {}).get("name")
    if not isinstance(name, str) or not DNS_LABEL.match(name):
        problem("metadata.name", f"{name!r} is not a DNS-1123 label (lower case, digits, '-', at most 63)")
    spec = job.get("spec")
    if not isinstance(spec, dict):
        problem("spec", "is missing")
        return problems
    for field in sorted(set(spec) - JOB_SPEC_FIELDS):
        problem(f"spec.{field}", "is not a field of a batch/v1 JobSpec (misspelt?); the API server drops it")
    for field in COUNT_FIELDS:
        value = spec.get(field)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            problem(f"spec.{field}", f"is {value!r}, want a whole number of at least 0")
    mode = spec.get("completionMode", "NonIndexed")
    if mode not in ("Indexed", "NonIndexed"):
        problem("spec.completionMode", f"is {mode!r}, want Indexed or NonIndexed")

    pod = ((spec.get("template") or {}).get("spec")) or {}
    restart = pod.get("restartPolicy")
    if restart not in ("Never", "OnFailure"):
        problem("spec.template.spec.restartPolicy", f"is {restart!r}; a Job needs Never or OnFailure")
    if "backoffLimitPerIndex" in spec and (mode != "Indexed" or restart != "Never"):
        problem("spec.backoffLimitPerIndex", "needs completionMode Indexed and restartPolicy Never")
    volumes = {v.get("name") for v in pod.get("volumes") or [] if isinstance(v, dict)}
    containers = pod.get("containers")
    if not isinstance(containers, list) or not containers:
        problem("spec.template.spec.containers", "is missing or empty")
        containers = []
    command_lines = []
    for index, container in enumerate(containers):
        where = f"spec.template.spec.containers[{index}]"
        if not isinstance(container, dict):
            problem(where, "is not a mapping")
            continue
        if not isinstance(container.get("name"), str) or not DNS_LABEL.match(container["name"]):
            problem(f"{where}.name", f"{container.get('name')!r} is not a DNS-1123 label")
        if not isinstance(container.get("image"), str) or not container["image"]:
            problem(f"{where}.image", "is missing")
        words = []
        for field in ("command", "args"):
            value = container.get(field, [])
            if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
                problem(f"{where}.{field}", "is not a list of strings")
            else:
                words += value
        command_lines.append(" ".join(words))
        for mount in container.get("volumeMounts") or []:
            if mount.get("name") not in volumes:
                problem(f"{where}.volumeMounts", f"mounts {mount.get('name')!r}, which is not in volumes")
            if not str(mount.get("mountPath", "")).startswith("/"):
                problem(f"{where}.volumeMounts", f"mountPath {mount.get('mountPath')!r} is not absolute")

    command = " ".join(command_lines)
    segment = SEGMENT.search(command)
    if segment:
        count = segment.group(1).split("/")
        if len(count) != 2 or count[0] != "auto" or not count[1].isdigit():
            problem("command", f"--segment {segment.group(1)}: want auto/N, the index taken from the Job")
            return problems
        segments = int(count[1])
        if mode != "Indexed":
            problem("spec.completionMode", "a segments Job must be Indexed (JOB_COMPLETION_INDEX is the segment)")
        if spec.get("completions") != segments:
            problem("spec.completions", f"is {spec.get('completions')!r}, but the command encodes {segments} segments")
        if isinstance(spec.get("parallelism"), int) and spec["parallelism"] > segments:
            problem("spec.parallelism", f"is {spec['parallelism']}, more than the {segments} segments")
        if "JOB_COMPLETION_INDEX" not in command:
            problem("command", "the segment's output is not named after JOB_COMPLETION_INDEX; the pods overwrite one file")
    elif re.search(r"\bflipbook\s+join\b", command):
        if mode == "Indexed":
            problem("spec.completionMode", "a join Job runs once; it must not be Indexed")
        if spec.get("completions", 1) != 1:
            problem("spec.completions", f"is {spec.get('completions')!r}; a join runs once")
    else:
        problem("command", "runs neither `flipbook ... --segment auto/N` nor `flipbook join`")
    return problems


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    problems = [line for path in paths for line in check(path)]
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
