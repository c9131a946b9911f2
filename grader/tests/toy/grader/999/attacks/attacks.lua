-- attacks.lua: the attack suite of chapter 999 (the toy chapter), and what each must come to
-- (grader/165/attacks/attacks.lua documents the fields; grader/attacks.lua grades them).
return {
  { name = "exec_reference", base = "stubs", score = 0 },
}
