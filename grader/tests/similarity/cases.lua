-- cases.lua: the code-similarity tests (grader_spec.lua's "code similarity" block reads this
-- file and runs every case the same way). Each case is a folder of submissions, each
-- submission made from one source:
--   reference    solutions/165/profile.c
--   disguised    the reference with the renames below, reformatted (no indentation, every
--                "{" on a line of its own) and its top-level blocks in the reverse order
--   independent  grader/tests/similarity/independent.c, a second correct solution
--   stub         exercises/165/profile.c, as shipped
-- then grader/similarity.lua runs on the folder (with base, a folder of past submissions made
-- the same way, as base code), and its table must show:
--   first        the pair ranked first, each of its shares at least min_share %
--   low          pairs that rank below first, each share under max_share %, with no view
--   alone        submissions in no pair at all
--   view         a pair that gets a side-by-side view
return {
  renames = {
    { "is_digit", "isdig" }, { "push_digit", "take" }, { "scan_count", "number_at" },
    { "scan_percentage", "percent_at" }, { "starts_with_count_column", "other_event" },
    { "is_marker_or_indented", "tree_line" }, { "name_length", "trimmed" }, { "Entry", "Slot" },
    { "FrameTable", "Names" }, { "hash_frame", "mix" }, { "find_slot", "probe" },
    { "grow_table", "enlarge" }, { "add_frame", "credit" }, { "add_stack", "walk" },
    { "compare_costs", "order" }, { "free_costs", "drop_all" }, { "collect_costs", "harvest" },
    { "table", "names" }, { "frame", "fr" }, { "value", "acc" }, { "length", "len" }, { "p", "cur" },
  },
  min_share = 90,
  max_share = 30,
  cases = {
    {
      title = "a renamed, reformatted, reordered copy of the reference ranks first; an independent solution and the stub do not",
      submissions = { ["ann"] = "reference", ["bob"] = "disguised", ["cy"] = "independent", ["dee"] = "stub",
        ["eve"] = "stub" },
      first = { "ann", "bob" },
      low = { { "ann", "cy" }, { "bob", "cy" } },
      alone = { "dee", "eve" },
      view = { "ann", "bob" },
    },
    {
      title = "hostile folder names are escaped in the table and the view",
      submissions = { ["<img src=x onerror=alert(1)>"] = "reference", ["x\27[2J\7\ny"] = "disguised",
        ['"&\'quoted'] = "independent" },
      first = { "<img src=x onerror=alert(1)>", "x\27[2J\7\ny" },
      low = { { "<img src=x onerror=alert(1)>", '"&\'quoted' } },
      view = { "<img src=x onerror=alert(1)>", "x\27[2J\7\ny" },
    },
    {
      title = "code in a past submission (BASE) is base code: the copy of it counts for nothing",
      submissions = { ["ann"] = "reference", ["bob"] = "disguised", ["cy"] = "independent" },
      base = { ["last-year"] = "reference" },
      alone = { "ann", "bob" },
    },
  },
}
