-- mutants.lua: the known-wrong implementation of chapter 999 (the toy chapter).
--
-- Each mutant is grader/999/mutants/digits.c built with one FAULT_ macro; `make
-- verify-fixtures` grades each (grader/165/mutants/mutants.lua says what the fields require).
return {
  { fault = "NONE", what = "the mutants' base with no fault (must score full marks)", loses = {},
    keeps = { "group_digits_fixtures", "group_digits_tight" } },
  { fault = "NO_ROOM_FOR_NUL", what = "forgets the '\\0' in the room it needs",
    loses = { "group_digits_tight" }, keeps = { "group_digits_fixtures" }, status = "heap%-buffer%-overflow" },
}
