Every run of a build gives the program one name as its argv[0], whichever executable runs
(orig, inst, a slice, an evaluator): a program that reads its own name counts by it, and
the same input must count the same in each. The name is the first source's base name
without .c (the bitcode's without .bc or .ll; a mantis cc program's own name).

  $ cat > name.c <<'C'
  > #include <stdlib.h>
  > #include <string.h>
  > int main(int argc, char **argv)
  > {
  > 	int n = argc > 1 ? atoi(argv[1]) : 1;
  > 	long s = 0;
  > 	for (int r = 0; r < n; r++)
  > 		for (size_t i = 0; i < strlen(argv[0]); i++)
  > 			s += argv[0][i];
  > 	return s == 0;
  > }
  > C
  $ mantis instrument -o build name.c --schemes loop > /dev/null
  $ /usr/bin/python3 -c 'import json; print(json.load(open("build/features.json"))["build"]["program"])'
  name
  $ mantis features build -- 3 | sort
  loop:main:name.c:7                                           3
  loop:main:name.c:8                                           12

A slice of the inner loop counts what inst counted (4 per round, not the length of a path
such as build/slice/feature0):

  $ printf '3\n10\n0\n' > inputs.txt
  $ mantis slice build --features loop:main:name.c:8 --inputs inputs.txt --reps 1 --json > out.json
  mantis slice: inputs.txt:3: build/inst exits with status 1 (0)
  $ /usr/bin/python3 -c 'import json; d = json.load(open("out.json")); print([(f["name"], f["validated"]) for f in d["features"]])'
  [('loop:main:name.c:8', True)]

Bitcode takes its name from its file:

  $ clang -c -emit-llvm -O0 -g -o other-name.bc name.c
  $ mantis instrument -o build2 other-name.bc --schemes loop > /dev/null
  $ mantis features build2 -- 2 | grep ':8 '
  loop:main:name.c:8                                           20

A build made before the name was recorded runs each executable under its own absolute path:

  $ /usr/bin/python3 -c '
  > import json; d = json.load(open("build/features.json")); del d["build"]["program"]
  > json.dump(d, open("build/features.json", "w"))'
  $ mantis features build -- 1 | awk '/:8 / { print $2 }' > count
  $ /usr/bin/python3 -c 'import os; print(int(open("count").read()) == len(os.path.abspath("build/inst")))'
  True
