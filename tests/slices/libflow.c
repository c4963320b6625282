/* Case 6: values flow through library calls (strcpy, sscanf, strtol, memcpy) into a loop
 * bound. A slicer that assumes an unknown call only reads its arguments loses them and the
 * evaluator counts 0: every one of these calls must stay. argv[1] is "SCALE,LIMIT[x]". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct config {
	int scale;
	long limit;
	char name[16];
};

int main(int argc, char **argv)
{
	char buf[64], report[128];
	struct config cfg, copy;
	char *comma, *end;
	long total = 0;

	if (argc < 2 || strlen(argv[1]) >= sizeof buf)
		return 1;
	strcpy(buf, argv[1]); // kept
	int got = sscanf(buf, "%d", &cfg.scale); // kept
	if (got != 1)
		return 1;
	comma = strchr(buf, ','); // kept
	if (!comma)
		return 1;
	cfg.limit = strtol(comma + 1, &end, 10); // kept
	if (*end == 'x')
		cfg.limit *= 2; // kept
	strcpy(cfg.name, "config");
	memcpy(&copy, &cfg, sizeof cfg); // kept
	for (long i = 0; i < copy.scale * copy.limit; i++)
		total += i * i; // removed
	snprintf(report, sizeof report, "%s %d %ld %ld", copy.name, copy.scale, copy.limit, total); // removed
	puts(report); // removed
	return 0;
}

// slice: loop:main:libflow.c:35
// run: 3,7
// run: 2,50x
// run: 0,9
// run: 12,1000
// run: abc
// status: 1
// run: 5
// status: 1
