-- rubric.lua: what chapter 165 is graded on, and how many points each part is worth.
--
-- This file is data for instructors: change the points or the speed factor here
-- and nothing else (the limits of each check are the exercise's, in
-- exercises/165/chapter.lua and exercises/harness/chapter.lua). A family's points are shared equally by
-- its checks (one check per fixture file), so adding a fixture does not change
-- the total. Inside a check, credit is partial: the share of items (lines,
-- needles, functions) whose answer matches the reference solution's.
--
-- Rules the grader applies to every check (grader/README.md explains them):
--   * a run that crashed, timed out, hit a sanitizer or a limit scores 0;
--   * a run that only leaked memory keeps leak_credit of what it earned;
--   * returning -1 (the error answer) counts only for a function that also
--     gives right non-error answers somewhere, so the stubs score 0.
return {
  leak_credit = 0.5,

  -- Answers that code doing nothing would also give ("not a row", a sum of 0, no
  -- function, -1) earn full credit once a function gets this share of its real answers
  -- right over the whole run, proportionally less below it: nothing for doing nothing.
  trivial_full_at = 0.5,

  -- Points per family; the families are defined in grader/165/chapter.lua.
  points = {
    parse_row_fixtures = 25, -- parse_row on every line of every annotate fixture
    parse_row_edges = 10, -- seeded lines built from the handout's rules
    parse_row_variants = 10, -- the fixtures renamed, renumbered and shuffled
    sum_named_fixtures = 8, -- the needles of fixtures.lua over each fixture's rows
    sum_named_edges = 7, -- substring rules, case, overflow past UINT64_MAX
    inclusive_fixtures = 12, -- every folded fixture
    inclusive_edges = 5, -- recursion, empty frames, duplicates, zero counts
    inclusive_overflow = 3, -- a cost past UINT64_MAX must be an error
    inclusive_variants = 5, -- the folded fixtures renamed, renumbered, shuffled
    speed = 15, -- instruction count of inclusive() against the reference
  },

  -- Speed: the checker runs inclusive() over a generated folded input (its size:
  -- exercises/165/chapter.lua's speed) under cachegrind (fast build, no sanitizers), and the
  -- instructions of the whole run (constructors included), less those of a run that only
  -- reads the input, are compared with the reference's. Full points up to `limit` times the
  -- reference's count, half up to `half_limit` times, else 0. A run still going after
  -- `cpu_factor` x the reference's CPU time under cachegrind (at least `cpu_floor` s) is
  -- stopped: its count would be far past the limit. make expected publishes the budget
  -- these make (exercises/165/tests/expected/speed.txt and the handout's table).
  -- The kernel's CPU time is a second witness: a run that took more than `witness_factor`
  -- times what its count predicts (from the reference's CPU time), plus `witness_slack`
  -- seconds, did work its count does not show, and earns no speed points. The slack is
  -- small beside the graded input's cost (the reference's run about 0.2 s of CPU on 20,000
  -- stacks, linear-search code 2 s): at 0.5 s such code claiming the half limit would pass on
  -- a machine 10 % faster than ours.
  speed = {
    limit = 4,
    half_limit = 10,
    cpu_factor = 25,
    cpu_floor = 30,
    witness_factor = 2.5,
    witness_slack = 0.25,
  },
}
