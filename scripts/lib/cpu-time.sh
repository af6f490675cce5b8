# Sourced (not run) by scripts/test and scripts/swift-test-summarized: the CPU-seconds of
# their time splits.

# children_cpu_ms: sets REPLY to the user + system CPU time, in milliseconds, of every child
# the calling shell has waited for (bash's `times`; a child's figure includes its own waited-for
# descendants, so the difference around a command is the CPU it used: compilers, test
# processes, servers it started and stopped; not daemons that detached). `times` runs in the
# calling shell itself (in a `$(times)` subshell it would report the subshell's children),
# into a temporary file of its own (the lanes of scripts/test call this at the same time).
children_cpu_ms() {
    local file line field
    file=$(mktemp)
    times >"$file"
    line=$(tail -n 1 "$file")   # "XmY.YYYs XmY.YYYs": the children's user and system time
    rm -f "$file"
    REPLY=0
    for field in $line; do
        [[ $field =~ ^([0-9]+)m([0-9]+)\.([0-9]{3})s$ ]] || continue
        REPLY=$((REPLY + (10#${BASH_REMATCH[1]} * 60 + 10#${BASH_REMATCH[2]}) * 1000 + 10#${BASH_REMATCH[3]}))
    done
}
