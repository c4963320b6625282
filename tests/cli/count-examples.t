ByCounter's invariant: counting once per block (the bycount scheme) and once per instruction
(bycount-per-instruction, the reference bench/count measures the overhead against) give the
same counts, exactly, on every example (its first two test inputs; -O0 builds, which count the
same IR and build faster). The totals are the examples' exact instruction counts.

  $ here=$PWD
  $ for e in chess encryptor facedetect findmaxima pathroute ringtone spamfilter textsearch; do
  >   cd "$MANTIS_TOP/examples/$e" || exit 1
  >   mantis instrument -O0 -o "$here/$e-block" src/*.c -lm --schemes bycount > /dev/null || echo "$e: instrument failed"
  >   mantis instrument -O0 -o "$here/$e-inst" src/*.c -lm --schemes bycount-per-instruction > /dev/null || echo "$e: instrument failed"
  >   cd test
  >   grep -v '^#' inputs.txt | grep -v '^$' | head -2 | while read -r line; do
  >     mantis count --json "$here/$e-block" -- $line > "$here/block.json" 2> /dev/null
  >     mantis count --json "$here/$e-inst" -- $line > "$here/inst.json" 2> /dev/null
  >     cmp -s "$here/block.json" "$here/inst.json" && same=identical || same=DIFFERENT
  >     echo "$e $(python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(j["total"], len(j["functions"]), "functions")' "$here/block.json") $same"
  >   done
  > done
  chess 425122525 32 functions identical
  chess 24555697 32 functions identical
  encryptor 573643 21 functions identical
  encryptor 493860 21 functions identical
  facedetect 3323276 24 functions identical
  facedetect 6060600 24 functions identical
  findmaxima 969037 16 functions identical
  findmaxima 664973 19 functions identical
  pathroute 32595 26 functions identical
  pathroute 34885 26 functions identical
  ringtone 13593754 25 functions identical
  ringtone 7111036 25 functions identical
  spamfilter 36800 19 functions identical
  spamfilter 23577 19 functions identical
  textsearch 496557 34 functions identical
  textsearch 565073 32 functions identical
