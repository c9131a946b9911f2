-- Chapter 165's settings for the chapter engine (chapters/tools/folder.lua), Lua data read in
-- an empty environment. Each figure figures/NAME.svg is drawn by `dripprof flame` from
-- data/FOLDED.folded, or, for a differential figure, from `dripprof diff` of
-- data/BEFORE.folded and data/AFTER.folded.
return {
  figures = {
    { name = "fib-c", folded = "fib-c", countname = "Ir",
      title = "fib.drip on build/drip: C functions (callgrind)" },
    { name = "fib-drip", folded = "fib-drip", countname = "bytecodes",
      title = "fib.drip: Drip functions (drip --folded)" },
    { name = "fib-outline-diff", before = "fib-c", after = "fib-outline-c", countname = "Ir",
      title = "fib.drip: build/drip-outline against build/drip (callgrind)" },
  },
}
