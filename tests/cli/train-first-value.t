A header's value as the program stores it: the image's width and height, fields of a struct
(--schemes all,fields: a store to a field of a struct assigns a variable), read off a binary
file whose size says nothing of them. The work is a hash over every pixel, and its loops end
early on a hash no input reaches, so every count of them needs the whole run; the header is
read again every 4096 rows (a stream that repeats its header), so the static slice of the
header's values keeps the loops too (their later assignments). Yet their first values
(image.width.first, image.height.first) are final once assigned, and their evaluator stops
there: it costs the program's work up to the header, and training (which estimates that share
from snapshots of the counters on three training runs) accepts them; the model is their
product, exact. (--no-input-features: with input features, the same values are read off
the file itself, no evaluator at all: train-header-field.t.)

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > 
  > struct image {
  > 	long width, height; /* the header's size */
  > };
  > 
  > /* Reads the header: "IMG1", then the width and the height as 32-bit little-endian numbers. */
  > static int read_header(struct image *im, FILE *f)
  > {
  > 	unsigned char b[12];
  > 
  > 	if (fread(b, 1, sizeof b, f) != sizeof b)
  > 		return -1;
  > 	im->width = b[4] | b[5] << 8 | b[6] << 16;
  > 	im->height = b[8] | b[9] << 8 | b[10] << 16;
  > 	return 0;
  > }
  > 
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	struct image im;
  > 	unsigned long acc = 5381;
  > 
  > 	if (!f || read_header(&im, f) < 0)
  > 		return 1;
  > 	for (long row = 0; row < im.height && acc != 43; row++) {
  > 		for (long x = 0; x < im.width && acc != 42; x++) {
  > 			unsigned long p = acc ^ (unsigned long)x;
  > 
  > 			p = p * 0x9e3779b97f4a7c15ul;
  > 			p ^= p >> 29;
  > 			p = p * 0xbf58476d1ce4e5b9ul;
  > 			acc = acc * 33 + (p ^ p >> 31);
  > 		}
  > 		if (row % 4096 == 4095) { /* the stream repeats its header */
  > 			rewind(f);
  > 			read_header(&im, f);
  > 		}
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", acc);
  > 	return 0;
  > }
  > C
  $ cat > images.py <<'PY'
  > import random, struct, sys
  > seed, n, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
  > rng = random.Random(seed)
  > for i in range(n):
  >     w, h = rng.randint(2000, 7000), rng.randint(2000, 7000)
  >     body = bytes(rng.getrandbits(8) for _ in range(rng.randint(100, 3000)))
  >     with open("%s%d.img" % (prefix, i), "wb") as f:
  >         f.write(b"IMG1" + struct.pack("<II", w, h) + body)
  >     print("%s%d.img" % (prefix, i))
  > PY
  $ python3 images.py 1 16 in > train.txt
  $ python3 images.py 2 4 t > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions --schemes all,fields --no-input-features prog.c > log.txt
  $ grep '^estimate:' log.txt | sed -E 's/; [0-9.]+ s[)]/)/'
  estimate: 30 of 32 varying features rejected by their slice's estimated cost (32 estimated, the most correlated with the metric first, 30 of them stopped once over; first values within it, whose evaluators stop once assigned: 2)

The decisions: the model reads the two first values and nothing else, each accepted under the
threshold (5%), and predicts the held-out images' counts within 0.1%; beyond its process
start (eval's start_cost: 2-3 ms on a host whose exec is slow, 5-14% of these 20-200 ms runs
there), the evaluator costs under 5% of the run (it would cost the whole run had it not
stopped once the header was read):

  $ cat > decisions.py <<'PY'
  > import json
  > log = json.load(open("pred/train.json"))
  > model = json.load(open("pred/model.json"))
  > print(sorted({f for t in model["terms"] for f in t["powers"]}))
  > decided = {d["name"]: d for it in log["iterations"] for d in it["decisions"]}
  > print(all(decided[f]["accepted"] and decided[f]["cost"] < 0.05 for t in model["terms"] for f in t["powers"]))
  > PY
  $ python3 decisions.py
  ['value:read_header:prog.c:14:image.width.first', 'value:read_header:prog.c:15:image.height.first']
  True
  $ mantis eval pred --inputs test.txt --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["n"], e["mre"] < 0.001, e["predict_cost"] - e["start_cost"] < 0.05)'
  4 True True

mantis slice says so of each evaluator; without the field scheme there is no such feature:

  $ mantis slice pred/build --features value:read_header:prog.c:14:image.width.first | sed -n 2p | sed -E 's/kept .* s,/kept K,/'
  value:read_header:prog.c:14:image.width.first: kept K, stops once assigned
  $ mantis instrument -o plain prog.c > /dev/null
  $ grep -c 'image\.' plain/features.json
  0
  [1]
