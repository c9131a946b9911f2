-- rubric.lua: what chapter 999 (the toy chapter) is graded on, and how many points each part
-- is worth. A family's points are shared equally by its checks (one per fixture file);
-- inside a check, credit is the share of calls whose answer matches the reference's.
return {
  leak_credit = 0.5,
  -- Answers that code doing nothing would also give (-1) earn full credit once
  -- group_digits gets this share of its real answers right over the whole run.
  trivial_full_at = 0.5,
  points = {
    group_digits_fixtures = 6, -- every value of every fixture file, with room to spare
    group_digits_tight = 4, -- seeded values in buffers of exactly their room, and one byte less
  },
}
