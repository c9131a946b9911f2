-- attacks.lua: the attack suite of chapter 165, and what each attack must come to.
--
-- `make test-grader` (grader/tests/grader_spec.lua, "attack suite") builds every attack into a submission
-- (prelude.c, then the attack, then its base: see prelude.c), grades them all as one batch
-- at each isolation level (bubblewrap, then the unprivileged-user fallback), and checks:
--   score        0, or "full" (everything the fixtures offer: the attack changed nothing)
--   build        a Lua pattern the report's build line must match
--   status       a Lua pattern some check's report must match
--   families     { family = "zero" | "full" }
--   forks_at_most  every "attack: forked N" in the report has N at most this
--   report_at_most  bytes: the report, and results.json, are at most this long
--   not_graded   a Lua pattern: the batch must not grade it, and its NAME.err must match
--   speed        "not_full": the speed check must not give full marks;
--                "no_better_than": NAME, no more speed points than that entry
--   user, bwrap  fields of the above that hold at that isolation level instead (false: none)
--   sealed       true: the prelude keeps no command line (its constructor would keep the
--                grader from running the attack's cases in one sealed box at the bwrap level)
-- and, for every attack: the grading finished, its report holds no control character but
-- newlines (nothing the student prints can drive the instructor's terminal), nothing of the solution, the expected
-- answers or the grader's environment appears in its results.json, no process named
-- "drip-attack" survives, no attack marker file is left, results.json is unchanged a while
-- after grading, the repository is unchanged, and the shipped stubs still score 0.
--
-- base: "stubs" (exercises/165/profile.c), "reference" (solutions/165/profile.c), "mutant"
-- (the mutant named `mutant` in grader/165/mutants/mutants.lua), "none" (the attack is the
-- whole file). kind = "symlink" makes profile.c a
-- symbolic link to `target`; kind = "folder_symlink" makes the submission's folder itself a
-- symbolic link to `target`; kind = "hardlink" makes profile.c a hard link to a copy of `from`
-- kept outside the submission; kind = "huge" a file of `size` bytes; kind = "nested" puts profile.c
-- in the folder `nested` below the submission's (its name may hold a newline). with_speed = true grades
-- the entry with the speed check (a batch of its own).
return {
  { name = "include_relative", base = "stubs", score = 0, build = "does not compile" },
  { name = "include_absolute", base = "stubs", score = 0, build = "does not compile" },
  { name = "include_gradescope", base = "stubs", score = 0, build = "does not compile" },
  { name = "incbin", base = "stubs", score = 0, build = "does not compile" },
  { name = "exec_reference", base = "stubs", score = 0 },
  { name = "edit_grader", base = "reference", score = "full" },
  { name = "rewrite_results", base = "stubs", score = 0 },
  { name = "read_expected", base = "stubs", score = 0 },
  { name = "read_fixtures_elsewhere", base = "stubs", score = 0 },
  { name = "exfiltrate", base = "stubs", score = 0, status = "crashed: SIGABRT" },
  { name = "fork_bomb", base = "stubs", score = 0, forks_at_most = 15 }, -- limits.procs is 16
  { name = "setsid_escape", base = "reference", score = "full" },
  { name = "kill_parent", base = "reference", score = "full" },
  -- At the user level two boxes that run at once share the machine's /tmp, so a note can pass
  -- between them there (a limit of that level: it has no namespaces); only bubblewrap's holds.
  { name = "sealed_channel", base = "reference", sealed = true, user = { families = false },
    families = { parse_row_fixtures = "zero", sum_named_fixtures = "full", inclusive_fixtures = "full" } },
  { name = "ptrace_parent", base = "reference", families = { parse_row_fixtures = "full", inclusive_fixtures = "full" } },
  { name = "huge_file", base = "reference", score = "full" },
  { name = "memory_bomb", base = "reference", status = "memory limit: more than 512 MB",
    families = { inclusive_fixtures = "zero", parse_row_fixtures = "full", sum_named_fixtures = "full" } },
  { name = "sigstop", base = "reference", status = "stopped by a signal",
    families = { sum_named_fixtures = "zero", sum_named_edges = "zero", parse_row_fixtures = "full",
      inclusive_fixtures = "full" } },
  { name = "leak_off", base = "mutant", mutant = "LEAK", score = 0, build = "refused: .*__lsan_is_turned_off" },
  -- The memory checks switched off without defining a hook: AddressSanitizer's interface by a
  -- weak declaration, LeakSanitizer's by dlsym of a name built at run time, glibc's allocator
  -- that LeakSanitizer does not watch.
  { name = "asan_unpoison", base = "reference", score = 0, build = "refused: .*calls __asan_unpoison_memory_region" },
  { name = "lsan_dlsym", base = "reference", score = 0, build = "refused: .*calls dlsym" },
  { name = "libc_malloc", base = "reference", score = 0, build = "refused: .*calls __libc_malloc" },
  { name = "do_nothing", base = "none", score = 0 },
  { name = "symlink_solution", kind = "symlink", target = "@ROOT@/solutions/165/profile.c", score = 0,
    build = "FAILED: the submission" },
  { name = "symlink_shadow", kind = "symlink", target = "/etc/shadow", score = 0, build = "FAILED: the submission" },
  -- The submission's folder a symbolic link to the reference's (or another student's): the
  -- batch followed it and graded the reference, 85 of 85.
  { name = "folder_symlink", kind = "folder_symlink", target = "@ROOT@/solutions/165",
    not_graded = "is a symbolic link, not a folder" },
  -- profile.c a hard link to a file the student cannot read (the reference): the grader, as
  -- root, read it and gave full marks.
  -- Folder names the batch uses for its own files: a folder scores.csv made the summary fail
  -- for the whole batch ("Is a directory"); one named after another's NAME.err (here
  -- edit_grader's) collided with that submission's messages file.
  { name = "scores.csv", base = "reference", not_graded = "the batch writes a file named scores.csv" },
  { name = "edit_grader.err", base = "reference", not_graded = "the batch writes a file named edit_grader.err" },
  { name = "hardlink_solution", kind = "hardlink", from = "@ROOT@/solutions/165/profile.c", score = 0,
    build = "FAILED: the submission's profile.c has 2 hard links" },
  { name = "huge_source", kind = "huge", size = 3 << 20, score = 0, build = "the limit is" },
  -- The stubs, in folders whose names make a path with a newline: listed one path per line and
  -- sorted, the second half ("./solutions/165/profile.c", relative to the grader's folder, or
  -- Gradescope's copy of the reference) came first and the reference was graded instead.
  { name = "newline_path", kind = "nested", base = "stubs", nested = "x\n./solutions/165", score = 0 },
  { name = "newline_path_gradescope", kind = "nested", base = "stubs", nested = "x\n/autograder/source/solutions/165",
    score = 0 },
  -- A folder name inside the submission is the student's too, and the report names the
  -- folder profile.c was found in: an escape sequence and a line of its own ("score: 85 / 85")
  -- reached the report's "submission:" line raw.
  { name = "escape_folder", kind = "nested", base = "stubs", nested = "x\27[2J\nscore: 85 / 85", score = 0,
    status = "submission: [^\n]*x\\x1b%[2J\\x0ascore: 85 / 85" },
  { name = "include_dev_zero", base = "stubs", score = 0, build = "FAILED" },
  { name = "include_environ", base = "stubs", score = 0 },
  { name = "env_dump", base = "reference", families = { parse_row_fixtures = "zero", inclusive_fixtures = "full" } },
  { name = "leftovers", base = "reference", score = "full" },
  { name = "leftovers_more", base = "reference", score = "full" },
  { name = "ipc_channel", base = "reference", score = "full" },
  { name = "shm_hoard", base = "reference", score = "full",
    user = { score = false, status = "memory limit: more than 512 MB",
      families = { inclusive_fixtures = "zero", parse_row_fixtures = "full", sum_named_fixtures = "full" } } },
  -- Memory in files no process holds, and disk the machine shares (the user level).
  { name = "files_hoard", base = "reference", score = "full",
    user = { score = false, status = "output limit: more than %d+ bytes in files",
      families = { inclusive_fixtures = "zero", parse_row_fixtures = "full", sum_named_fixtures = "full" } } },
  { name = "grader_fds", base = "reference", score = "full" },
  { name = "escape_codes", base = "reference", status = "\\x1b%[2J", families = { parse_row_fixtures = "zero" } },
  { name = "escape_results", base = "reference", status = "actual:   \\x1b%[2J", families = { parse_row_fixtures = "zero" } },
  { name = "escape_input", base = "reference", status = "input:    sum_named%(rows of [^\n]*\\x1b%[2J" },
  -- report_at_most: the 1 MB key is cut to report.QUOTE bytes (4 escaped bytes each), so the
  -- report stays far below the 4 MB one quoted key would take.
  { name = "huge_key", base = "reference", status = "first difference at sum:\\x01\\x01[^\n]*more bytes%)",
    report_at_most = 256 << 10 },
  { name = "escape_c1", base = "reference", status = "\\xc2\\x9b2J", families = { parse_row_fixtures = "zero" } },
  -- A vfork() child that pause()s leaves its parent in state D, using no CPU: idle whatever the
  -- state, so the idle rule ends the check in seconds, not the wall-clock backstop.
  { name = "vfork_pause", base = "reference", status = "asleep for [%d.]+ s without using the CPU",
    families = { sum_named_fixtures = "zero", parse_row_fixtures = "full", inclusive_fixtures = "full" } },
  -- CPU time in children the kernel reaps (SIGCHLD ignored) would leave the tree's sum.
  { name = "cpu_offload_children", base = "reference", status = "timed out after [%d.]+ s of CPU time",
    families = { sum_named_fixtures = "zero", parse_row_fixtures = "full", inclusive_fixtures = "full" } },
  -- Memory in memfds, outside every process and file system (the attack aborts if it holds it).
  { name = "memfd_hoard", base = "reference", score = "full" },
  { name = "huge_array", base = "reference", score = 0, build = "refused: the built program is larger than" },
  -- Every uid may read every command line in /proc at the user level: none may name a
  -- submission while student code runs (a batch hands its jobs numbers, not names).
  { name = "proc_names", base = "reference", score = "full" },
  { name = "control_quadratic", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "not_full" },
  { name = "precompute", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic" },
  { name = "forge_callgrind", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic" },
  { name = "exec_native", base = "mutant", mutant = "QUADRATIC", with_speed = true, speed = "not_full" },
  -- The count forged where it is read: a whole output file written first and the log's
  -- closing line, its socket then shut (forge_count); the log flooded past what the sandbox
  -- keeps (forge_flood); the checker re-run quiet through VALGRIND_OPTS and .valgrindrc
  -- (reexec_quiet); callgrind's TOGGLE_COLLECT from a page decoded at run time
  -- (runtime_requests). None may earn more speed than the slow code itself.
  { name = "forge_count", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic" },
  { name = "forge_flood", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic" },
  { name = "reexec_quiet", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic" },
  { name = "runtime_requests", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic", status = "sys_mmap%(%) of executable memory" },
  -- VALGRIND_NON_SIMD_CALL (a function run natively, uncounted) from code made executable at
  -- run time, or written into the program's own code through /proc/self/mem.
  { name = "mprotect_exec", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic", status = "sys_mprotect%(%) of executable memory" },
  { name = "proc_self_mem", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic", status = "sys_openat%(%) of .*/proc/self/mem" },
  -- A leak, or a leak report, in the speed run once earned the leak credit of the speed points.
  { name = "speed_leak", base = "mutant", mutant = "QUADRATIC", with_speed = true,
    speed = "no_better_than", than = "control_quadratic" },
  -- The speed build (no sanitizers) wrong wherever only the sanitizer build was graded.
  { name = "sanitizer_ifdef", base = "reference", with_speed = true, families = { speed = "zero",
    inclusive_fixtures = "full", parse_row_fixtures = "full" } },
  { name = "callgrind_requests", base = "reference", score = 0, build = "refused: .*valgrind client requests" },
  { name = "native_call", base = "reference", score = 0,
    build = "refused: .*valgrind client requests" },
}
