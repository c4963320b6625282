A header field: a number at a fixed byte of the input's file that the program reads as a value
(field.h). The program reads a sound's header, "SND1", the channels as a big-endian 16-bit
word read a byte at a time (its first value is the high byte times 256, as libjpeg reads a
frame's width) and the frames as a 32-bit little-endian number, then mixes every sample: the
work is their product, and the file's size says nothing of either. Training matches the
program's first values against the training files' bytes and offers the fields that give
them as input features, before the program's own: the model reads the two fields, read off
the file by the scheduler with no evaluator and no process start.

  $ cat > prog.c <<'C'
  > #include <stdio.h>
  > 
  > /* Reads a "SND1" header: the channels as a big-endian 16-bit word, read a byte at a time (the
  >  * high byte first), and the frames as a 32-bit little-endian number; then mixes every sample. */
  > int main(int argc, char **argv)
  > {
  > 	FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  > 	unsigned char b[12];
  > 	unsigned long channels, frames, acc = 5381;
  > 
  > 	if (!f || fread(b, 1, sizeof b, f) != sizeof b)
  > 		return 1;
  > 	channels = (unsigned long)b[4] << 8;
  > 	channels += b[5];
  > 	frames = b[8] | (unsigned long)b[9] << 8 | (unsigned long)b[10] << 16 | (unsigned long)b[11] << 24;
  > 	for (unsigned long i = 0; i < frames; i++) {
  > 		for (unsigned long c = 0; c < channels && acc != 42; c++) {
  > 			unsigned long p = acc ^ i ^ c;
  > 
  > 			p = p * 0x9e3779b97f4a7c15ul;
  > 			acc = acc * 33 + (p ^ p >> 31);
  > 		}
  > 	}
  > 	fclose(f);
  > 	printf("%lu\n", acc);
  > 	return 0;
  > }
  > C
  $ cat > sounds.py <<'PY'
  > import random, struct, sys
  > seed, n, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
  > rng = random.Random(seed)
  > for i in range(n):
  >     channels, frames = rng.randint(200, 1400), rng.randint(2000, 20000)
  >     body = bytes(rng.getrandbits(8) for _ in range(rng.randint(100, 3000)))
  >     with open("%s%d.snd" % (prefix, i), "wb") as f:
  >         f.write(b"SND1" + struct.pack(">HH", channels, rng.randint(0, 65535)) + struct.pack("<I", frames) + body)
  >     print("%s%d.snd" % (prefix, i))
  > PY
  $ python3 sounds.py 1 16 in > train.txt
  $ python3 sounds.py 2 4 t > test.txt
  $ mantis train -o pred --inputs train.txt --repeat 1 --metric instructions prog.c > log.txt
  $ grep -E '^input features|^  input|^evaluator' log.txt
  input features: 6 vary over the inputs (numeric arguments, file sizes, content, script numbers, words, header fields)
    input:field(u16be@4)                               accepted: read off the input, no evaluator
    input:field(u32le@8)                               accepted: read off the input, no evaluator
  evaluator: none (the model reads only input features, read off the input)

The decisions: the model is the two fields' product, the word at byte 4 and the number at byte
8 (not the first value's high byte, nor the 32-bit word at byte 6 that is 65536 times the
frames wherever the byte before them is zero), exact on the held-out sounds:

  $ cat > decisions.py <<'PY'
  > import json
  > model = json.load(open("pred/model.json"))
  > print([sorted(t["powers"].items()) for t in model["terms"]])
  > PY
  $ python3 decisions.py
  [[('input:field(u16be@4)', 1), ('input:field(u32le@8)', 1)]]
  $ mantis eval pred --inputs test.txt --json 2> /dev/null | python3 -c 'import json, sys; e = json.load(sys.stdin); print(e["n"], e["mre"] < 0.001)'
  4 True
  $ mantis predict pred --json -- t0.snd > t0.json
  $ python3 -c 'import json, struct; h = open("t0.snd", "rb").read(12); print(json.load(open("t0.json"))["features"] == {"input:field(u16be@4)": struct.unpack(">H", h[4:6])[0], "input:field(u32le@8)": struct.unpack("<I", h[8:12])[0]})'
  True

An input whose file is missing has no header to read: predict refuses it, naming the field.

  $ mantis predict pred -- missing.snd
  mantis: input:field(u16be@4): the input names no file that can be read, and the model reads a header field of its largest; no prediction
  [1]

export-c reads the same bytes (header_field) and predicts the same, bit for bit:

  $ mantis export-c pred -o predict_snd.c --name snd > /dev/null
  $ grep -c 'header_field(data_file' predict_snd.c
  2
  $ cat > main.c <<'C'
  > #include <stdio.h>
  > double snd_predict(int argc, char **argv);
  > int main(int argc, char **argv) { printf("%.17g\n", snd_predict(argc - 1, argv + 1)); return 0; }
  > C
  $ cc -std=c11 -Wall -Wextra -Werror -o snd main.c predict_snd.c -lm
  $ for i in 0 1 2 3; do a=$(./snd prog t$i.snd); b=$(mantis predict pred --json -- t$i.snd | python3 -c 'import json, sys; print("%.17g" % json.load(sys.stdin)["prediction"])'); [ "$a" = "$b" ] && echo same || echo "$a $b"; done
  same
  same
  same
  same
