-- mutants.lua: the known-wrong implementations of chapter 165.
--
-- Each mutant is the reference, solutions/165/profile.c, with the literal text edits in
-- `edits` made (grader/mutants.lua: every `from` must occur exactly once, or the mutant is
-- refused). `make verify-fixtures` and `make test-grader` grade every one and require:
--   * the total is below full marks;
--   * every family in `loses` lost points (the fault is reported as itself);
--   * every family in `keeps` still has full marks (other checks still score);
--   * when `status` is given, some check's status matches that Lua pattern.
-- `slow = true` marks a mutant whose fault only the speed check sees; it is
-- graded with the speed check on (the others are graded without it in tests).
-- The attack suite builds some attacks on a mutant (grader/165/attacks/attacks.lua, `faults`).
return {
  { fault = "EVERY_OCCURRENCE", what = "adds a recursive frame's count once per occurrence",
    edits = { { from = "if (e->last_stack == stack_id) {", to = "if (false) {" } },
    loses = { "inclusive_fixtures", "inclusive_edges", "inclusive_variants" },
    keeps = { "parse_row_fixtures", "sum_named_fixtures" } },
  { fault = "FIRST_SPACE", what = "splits the name at the first space",
    edits = { { from = "size_t n = strlen(name);", to = 'size_t n = strcspn(name, " \\r\\n");' } },
    loses = { "parse_row_fixtures", "parse_row_edges", "parse_row_variants" },
    keeps = { "inclusive_fixtures", "sum_named_edges" } },
  { fault = "TRUNCATE", what = "truncates names to 255 characters",
    edits = {
      { from = "    return n;\n}", to = "    return n < 255 ? n : 255;\n}" },
      { from = "    uint64_t hash = hash_frame(key, length);",
        to = "    length = length < 255 ? length : 255;\n    uint64_t hash = hash_frame(key, length);" } },
    loses = { "parse_row_fixtures", "parse_row_edges", "inclusive_edges" },
    keeps = { "sum_named_fixtures", "inclusive_overflow" } },
  { fault = "U32", what = "keeps counts and sums in 32 bits (overflows at 2^32)",
    edits = {
      { from = "row->ir = ir;", to = "row->ir = (uint32_t)ir;" },
      { from = "total += rows[i].ir;", to = "total = (uint32_t)(total + rows[i].ir);" },
      { from = "e->cost += count;", to = "e->cost = (uint32_t)(e->cost + count);" } },
    loses = { "parse_row_fixtures", "sum_named_fixtures", "inclusive_fixtures", "sum_named_edges" },
    keeps = {} },
  { fault = "NEEDS_PCT", what = "ignores rows without a percentage",
    edits = { { from = "    if (has_pct) {\n        p = after_pct;\n    }",
      to = "    if (!has_pct) {\n        return 0;\n    }\n    p = after_pct;" } },
    loses = { "parse_row_fixtures", "parse_row_edges" },
    keeps = { "sum_named_fixtures", "inclusive_fixtures" } },
  { fault = "WRAPS", what = "lets sums wrap past UINT64_MAX instead of failing",
    edits = {
      { from = "if (rows[i].ir > UINT64_MAX - total) {", to = "if (false) {" },
      { from = "if (e->cost > UINT64_MAX - count) {", to = "if (false) {" } },
    loses = { "sum_named_edges", "inclusive_overflow" },
    keeps = { "parse_row_fixtures", "inclusive_fixtures" } },
  { fault = "LOOSE_COMMAS", what = "accepts counts with commas anywhere (\"1,23\")",
    edits = {
      { from = "    if (first > 3) {\n        return NULL; /* \"1234,567\" */\n    }\n", to = "" },
      { from = [[
    while (*p == ',') {
        for (int i = 1; i <= 3; i++) {
            if (!is_digit(p[i]) || !push_digit(value, p[i])) {
                return NULL; /* "1,23" or overflow */
            }
        }
        p += 4;
    }]], to = [[
    while (*p == ',' && is_digit(p[1])) {
        for (p++; is_digit(*p); p++) {
            if (!push_digit(value, *p)) {
                return NULL;
            }
        }
    }]] } },
    loses = { "parse_row_edges" }, keeps = { "sum_named_fixtures", "inclusive_fixtures" } },
  { fault = "KEEPS_CR", what = "keeps the \\r of a CRLF line end in the name",
    edits = { { from = "name[n - 1] == '\\r'", to = "false" } },
    loses = { "parse_row_edges" }, keeps = { "parse_row_fixtures", "inclusive_fixtures" } },
  { fault = "EMPTY_FRAMES", what = "counts empty frames (\"a;;b\") as a function",
    edits = { { from = "if (length > 0 && !add_frame(", to = "if (!add_frame(" } },
    loses = { "inclusive_edges" }, keeps = { "inclusive_fixtures", "parse_row_fixtures" } },
  { fault = "TIES", what = "sorts equal costs in the wrong name order",
    edits = { { from = "strcmp(x->name, y->name)", to = "strcmp(y->name, x->name)" } },
    loses = { "inclusive_fixtures" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" } },
  { fault = "STACK_BUFFER", what = "copies names through a 256-byte stack buffer",
    edits = { { from = "    char *copy = malloc(length + 1);",
      to = "    char buffer[256];\n    memcpy(buffer, name, length);\n    buffer[length] = '\\0';\n    name = buffer;\n"
        .. "    char *copy = malloc(length + 1);" } },
    loses = { "parse_row_fixtures", "parse_row_edges" }, keeps = { "inclusive_fixtures", "sum_named_fixtures" },
    status = "AddressSanitizer" },
  { fault = "NEEDS_SEMICOLON", what = "assumes every stack has a ';' (crashes on one-frame stacks)",
    edits = { { from = "    const char *frame = stack;",
      to = "    if (strrchr(stack, ';')[1] == '\\0') {\n        return true;\n    }\n    const char *frame = stack;" } },
    loses = { "inclusive_fixtures" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" },
    status = "SEGV" },
  { fault = "HANGS_ON_EMPTY_NEEDLE", what = "loops forever on the empty needle",
    -- Counts the occurrences first; an empty needle never advances.
    edits = { { from = "        if (rows[i].name == NULL || strstr(rows[i].name, needle) == NULL) {",
      to = "        size_t hits = 0;\n"
        .. "        for (const char *q = rows[i].name; q != NULL && (q = strstr(q, needle)) != NULL; q += strlen(needle)) {\n"
        .. "            hits++;\n"
        .. "        }\n"
        .. "        if (hits == 0) {" } },
    loses = { "sum_named_fixtures", "sum_named_edges" }, keeps = { "parse_row_fixtures", "inclusive_fixtures" },
    status = "timed out" },
  { fault = "LEAK", what = "never frees its hash table in inclusive()",
    edits = { { from = "    size_t n = table.used;\n    free(table.slots);\n", to = "    size_t n = table.used;\n" } },
    loses = { "inclusive_fixtures" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" },
    status = "leaked %d+ bytes" },
  { fault = "NULL_NAME", what = "calls strstr on a row whose name is NULL",
    edits = { { from = "rows[i].name == NULL || strstr(", to = "strstr(" } },
    loses = { "sum_named_edges" }, keeps = { "parse_row_fixtures", "sum_named_fixtures", "inclusive_fixtures" },
    status = "Sanitizer" },
  { fault = "NULL_STACK", what = "reads a NULL stack instead of taking it as empty",
    edits = { { from = "stacks[i].stack == NULL ? \"\" : stacks[i].stack;", to = "stacks[i].stack;" } },
    loses = { "inclusive_edges" }, keeps = { "parse_row_fixtures", "inclusive_fixtures" }, status = "Sanitizer" },
  { fault = "DROPS_ZERO", what = "leaves out functions seen only on stacks of count 0",
    edits = { { from = "        if (!add_stack(",
      to = "        if (stacks[i].count == 0) {\n            continue;\n        }\n        if (!add_stack(" } },
    loses = { "inclusive_edges" }, keeps = { "parse_row_fixtures", "sum_named_fixtures" } },
  { fault = "QUADRATIC", what = "looks every frame up by a linear search (quadratic)",
    edits = { { from = "    size_t i = (size_t)hash & (capacity - 1);",
      to = "    for (size_t j = 0; j < capacity; j++) {\n"
        .. "        if (slots[j].key != NULL && slots[j].length == length && memcmp(slots[j].key, key, length) == 0) {\n"
        .. "            return &slots[j];\n"
        .. "        }\n"
        .. "    }\n"
        .. "    size_t i = (size_t)hash & (capacity - 1);" } },
    loses = { "speed" }, keeps = { "parse_row_fixtures", "inclusive_fixtures", "inclusive_edges" }, slow = true },
}
