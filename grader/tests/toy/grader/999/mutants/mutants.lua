-- mutants.lua: the known-wrong implementation of chapter 999 (the toy chapter).
--
-- Each mutant is the reference, solutions/999/digits.c, with its `edits` made; `make
-- verify-fixtures` grades each (grader/165/mutants/mutants.lua says what the fields require).
return {
  { fault = "NO_ROOM_FOR_NUL", what = "forgets the '\\0' in the room it needs",
    edits = { { from = "if (size < length + 1) {", to = "if (size < length) {" } },
    loses = { "group_digits_tight" }, keeps = { "group_digits_fixtures" }, status = "heap%-buffer%-overflow" },
}
