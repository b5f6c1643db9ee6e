"""The hold'em shape engine: exact solvers, table strategies, paytable designs and CUDA kernel
bindings keyed by the shape of a game's decisions, not by its name (every game is described in
TOML; a description of one of these shapes gets them, whatever it is called).

- :mod:`.play_once`: hole cards, flop, turn and river together; an Ante and a Blind against the
  dealer and one Play placed once, at a multiple that shrinks street by street, or a fold on
  the river (Ultimate Texas Hold'em and its variants). Its counts are
  :mod:`.play_once_counts`, its table strategy :mod:`.play_once_tables`, and
  :mod:`.play_once_described` serves a described game of the shape.
- :mod:`.call_once`: one call or fold on the flop (Casino Hold'em's shape), :mod:`.call_once_*`.
- :mod:`.streets`: a Flop bet or a fold pre-flop, then a Turn and a River bet or a check (Texas
  Hold'em Bonus's shape), :mod:`.streets_*`.

Why a solver per shape: these count a shape's 5-card board classes once and price its decision
points from the counts, at the speed of the hand-written games they replaced (the described
games' one solver, :mod:`gpusim.games.described.solver`, serves every other description).
Measured from an empty cache on the 2-core development machine, each against its package in
one run (benchmarks/described_vs_package.py, docs/performance.md): Ultimate Texas Hold'em 35.8 s
(1.13x its package's time), Casino Hold'em 18.0 s (0.92x), Texas Hold'em Bonus 8.7 s (1.01x).
Each shape's CUDA kernel (``kernels/``) is the NVIDIA fast path of its simulation, through a
code map to the description's joint codes (:mod:`.kernel_codes`).
"""
