Compiler and linker flags as clang takes them: attached (-Iinc) or as two words (-I inc).

  $ mkdir inc
  $ cat > inc/scale.h <<'C'
  > #define SCALE 3
  > C
  $ cat > prog.c <<'C'
  > #include <math.h>
  > #include <stdio.h>
  > #include "scale.h"
  > int main(void)
  > {
  > 	printf("%d %d %.0f\n", SCALE, OFFSET, sqrt(81.0));
  > 	return 0;
  > }
  > C
  $ mantis instrument -o split --schemes call prog.c -I inc -D OFFSET=4 -l m > /dev/null
  $ split/orig && split/inst
  3 4 9
  3 4 9
  $ mantis instrument -o joined --schemes call prog.c -Iinc -DOFFSET=5 -lm > /dev/null
  $ joined/inst
  3 5 9

A flag that needs a word and has none is a usage error.

  $ mantis instrument -o bad prog.c -I
  mantis instrument: -I needs an argument
  See 'mantis help instrument'.
  [2]
