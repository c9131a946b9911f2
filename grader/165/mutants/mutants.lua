-- mutants.lua: the known-wrong implementations of chapter 165.
--
-- Each mutant is grader/165/mutants/profile.c built with one FAULT_ macro.
-- `make verify-fixtures` and `make test-grader` grade every one and require:
--   * the total is below full marks;
--   * every family in `loses` lost points (the fault is reported as itself);
--   * every family in `keeps` still has full marks (other checks still score);
--   * when `status` is given, some check's status matches that Lua pattern.
-- `slow = true` marks a mutant whose fault only the speed check sees; it is
-- graded with the speed check on (the others are graded without it in tests).
return {
  { fault = "NONE", what = "the mutants' base with no fault (must score full marks)", loses = {},
    keeps = { "parse_row_fixtures", "sum_named_fixtures", "inclusive_fixtures", "inclusive_edges" } },
  { fault = "EVERY_OCCURRENCE", what = "adds a recursive frame's count once per occurrence",
    loses = { "inclusive_fixtures", "inclusive_edges", "inclusive_variants" },
    keeps = { "parse_row_fixtures", "sum_named_fixtures" } },
  { fault = "FIRST_SPACE", what = "splits the name at the first space",
    loses = { "parse_row_fixtures", "parse_row_edges", "parse_row_variants" },
    keeps = { "inclusive_fixtures", "sum_named_edges" } },
  { fault = "TRUNCATE", what = "truncates names to 255 characters",
    loses = { "parse_row_fixtures", "parse_row_edges", "inclusive_edges" },
    keeps = { "sum_named_fixtures", "inclusive_overflow" } },
  { fault = "U32", what = "keeps counts and sums in 32 bits (overflows at 2^32)",
    loses = { "parse_row_fixtures", "sum_named_fixtures", "inclusive_fixtures", "sum_named_edges" },
    keeps = {} },
  { fault = "NEEDS_PCT", what = "ignores rows without a percentage",
    loses = { "parse_row_fixtures", "parse_row_edges" },
    keeps = { "sum_named_fixtures", "inclusive_fixtures" } },
  { fault = "WRAPS", what = "lets sums wrap past UINT64_MAX instead of failing",
    loses = { "sum_named_edges", "inclusive_overflow" },
    keeps = { "parse_row_fixtures", "inclusive_fixtures" } },
  { fault = "LOOSE_COMMAS", what = "accepts counts with commas anywhere (\"1,23\")",
    loses = { "parse_row_edges" }, keeps = { "sum_named_fixtures", "inclusive_fixtures" } },
  { fault = "KEEPS_CR", what = "keeps the \\r of a CRLF line end in the name",
    loses = { "parse_row_edges" }, keeps = { "parse_row_fixtures", "inclusive_fixtures" } },
  { fault = "EMPTY_FRAMES", what = "counts empty frames (\"a;;b\") as a function",
    loses = { "inclusive_edges" }, keeps = { "inclusive_fixtures", "parse_row_fixtures" } },
  { fault = "TIES", what = "sorts equal costs in the wrong name order",
    loses = { "inclusive_fixtures" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" } },
  { fault = "STACK_BUFFER", what = "copies names through a 256-byte stack buffer",
    loses = { "parse_row_fixtures", "parse_row_edges" }, keeps = { "inclusive_fixtures", "sum_named_fixtures" },
    status = "AddressSanitizer" },
  { fault = "NEEDS_SEMICOLON", what = "assumes every stack has a ';' (crashes on one-frame stacks)",
    loses = { "inclusive_fixtures" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" },
    status = "SEGV" },
  { fault = "HANGS_ON_EMPTY_NEEDLE", what = "loops forever on the empty needle",
    loses = { "sum_named_fixtures", "sum_named_edges" }, keeps = { "parse_row_fixtures", "inclusive_fixtures" },
    status = "timed out" },
  { fault = "LEAK", what = "never frees its hash table in inclusive()",
    loses = { "inclusive_fixtures" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" },
    status = "leaked %d+ bytes" },
  { fault = "NULL_NAME", what = "calls strstr on a row whose name is NULL",
    loses = { "sum_named_edges" }, keeps = { "parse_row_fixtures", "sum_named_fixtures", "inclusive_fixtures" },
    status = "Sanitizer" },
  { fault = "NULL_STACK", what = "reads a NULL stack instead of taking it as empty",
    loses = { "inclusive_edges" }, keeps = { "parse_row_fixtures", "inclusive_fixtures" }, status = "Sanitizer" },
  { fault = "DROPS_ZERO", what = "leaves out functions seen only on stacks of count 0",
    loses = { "inclusive_edges" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" } },
  { fault = "QUADRATIC", what = "looks every frame up by a linear search (quadratic)",
    loses = { "speed" }, keeps = { "parse_row_fixtures", "inclusive_fixtures", "inclusive_edges" }, slow = true },
}
