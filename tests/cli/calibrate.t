mantis calibrate, and predict and eval --platform: a platform's costs from generated
microbenchmarks, and a run's CPU time there as startup + sum of count x cost.

A tiny calibration (one repetition, 1 ms per kernel) has every opcode and library function:

  $ mantis calibrate -o host.json --repeat 1 --seconds 0.001 --quiet
  wrote host.json: 47 opcodes, 70 library functions, this machine -O2
  $ python3 - <<'PY'
  > import json
  > p = json.load(open("host.json"))
  > print(sorted(p))
  > print(p["target"], p["opt"], p["runner"], p["unit"], p["repetitions"])
  > print(sorted(p["opcodes"]["add"]), sorted(p["calls"]["memcpy"]))
  > print(all(c["cost"] >= 0 and c["noise"] >= 0 for c in list(p["opcodes"].values()) + list(p["calls"].values())))
  > print(p["opcodes"]["phi"]["cost"], p["opcodes"]["fdiv"]["cost"] > p["opcodes"]["fadd"]["cost"], p["startup_seconds"] > 0)
  > PY
  ['calls', 'machine', 'opcodes', 'opt', 'repetitions', 'runner', 'startup_noise', 'startup_seconds', 'target', 'unit', 'version']
  None 2 [] ns 1
  ['cost', 'latency', 'noise', 'throughput'] ['cost', 'noise', 'per_byte']
  True
  0.0 True True

The prediction's arithmetic, on a platform written by hand: add 1 ns (and so every opcode
without a cost of its own), call 2 ns, phi 0; memset 5 ns per call and 0.5 ns per byte; 1 ms
to start. The program of count.t executes, for n = 1000, 7015 instructions of which 2002 phis
and 3 calls, one of them memset on 1000 bytes: 1 ms + (7015 - 2002 + 3) ns + (5 - 2) ns +
500 ns = 0.001005519 s.

  $ cat > loop.c <<'C'
  > #include <stdlib.h>
  > #include <string.h>
  > 
  > static char buf[4096];
  > 
  > static int triangle(int n)
  > {
  > 	int s = 0;
  > 	for (int i = 0; i < n; i++)
  > 		s += i;
  > 	return s;
  > }
  > 
  > int main(int argc, char **argv)
  > {
  > 	int n = atoi(argv[1]);
  > 	memset(buf, 1, (size_t)n);
  > 	return triangle(n) == 4950;
  > }
  > C
  $ mantis instrument -o build loop.c --schemes bycount > /dev/null
  $ cat > hand.json <<'J'
  > {"opt": "2", "target": null, "runner": [], "startup_seconds": 0.001,
  >  "opcodes": {"add": {"cost": 1}, "call": {"cost": 2}, "phi": {"cost": 0}},
  >  "calls": {"memset": {"cost": 5, "per_byte": 0.5}}}
  > J
  $ mantis predict build --platform hand.json -- 1000
  0.00101 s (cpu on this machine -O2, count x cost)
  7015 instructions, counted in * s (glob)
  $ mantis predict build --platform hand.json --json -- 1000 | python3 -c 'import json, sys; j = json.load(sys.stdin); print(j["prediction"], j["countxcost"], j["corrected"], j["metric"], j["instructions"], j["features"]["op.phi"], j["features"]["bytes.memset"])'
  0.001005519 0.001005519 None cpu 7015 2002.0 1000.0

eval --platform runs the program here (BUILD/orig) and compares; --fit adds the correction,
fitted on the CPU times of its inputs:

  $ printf '2000\n20000\n200000\n400000\n' > inputs.txt
  $ mantis eval build --platform host.json --inputs inputs.txt --fit inputs.txt --repeat 1 --json > eval.json
  $ python3 -c 'import json; j = json.load(open("eval.json")); print(j["n"], j["metric"], j["platform"], sorted(j), sorted(j["corrected"]))'
  4 cpu host ['baselines', 'corrected', 'failed', 'lt15', 'lt30', 'max_re', 'median_re', 'metric', 'mre', 'n', 'noise_floor', 'platform', 'predict_cost', 'program_cpu'] ['lt30', 'median_re', 'model', 'mre']

Errors say what is wrong:

  $ mantis predict build --platform missing.json -- 1
  mantis: cannot read missing.json: unable to open missing.json: No such file or directory
  [1]
  $ sed 's/"target": null/"target": "aarch64-linux-gnu"/' hand.json > other.json
  $ mantis eval build --platform other.json --inputs inputs.txt
  mantis: other.json is another target (aarch64-linux-gnu): give the program built for it (--program EXE)
  [1]
  $ mantis calibrate --repeat 0 -o x.json
  mantis calibrate: --repeat must be 1 to 64
  See 'mantis help calibrate'.
  [2]
  $ mantis calibrate
  mantis calibrate: no output file (-o PLATFORM.json)
  See 'mantis help calibrate'.
  [2]
