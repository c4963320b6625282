/* Case 17: a loop that no training run enters, right behind a branch no training run takes: the
 * rescale of a picture whose maxval is not 255. The loop's exit and its error exit (a pixel
 * above maxval) meet in one cleanup block, a phi of which of the two came, so the loop decides
 * what the reader returns; only the pruning of the cold branch (src/prune.c) frees the slice of
 * it, and of the read of every pixel that it scans. The loop's header opens with a debug call
 * naming i, which the slicer deletes: the header's counter tag must not go with it, or no
 * header is ever cold. */
#include <stdio.h>
#include <stdlib.h>

static unsigned char *read_picture(const char *path, long *width)
{
	FILE *f = fopen(path, "rb");
	long w, maxval;
	unsigned char *pix = NULL;
	size_t n;

	if (!f)
		return NULL;
	if (fscanf(f, "%ld %ld", &w, &maxval) != 2 || w <= 0 || maxval <= 0)
		goto fail;
	pix = malloc((size_t)w);
	if (!pix)
		goto fail;
	n = fread(pix, 1, (size_t)w, f); // removed
	if (maxval != 255) {
		for (size_t i = 0; i < n; i++) {
			if (pix[i] > maxval)
				goto fail;
			pix[i] = (unsigned char)(pix[i] * 255 / maxval); // removed
		}
	}
	fclose(f);
	*width = w;
	return pix;
fail:
	fclose(f);
	free(pix);
	return NULL;
}

int main(int argc, char **argv)
{
	long w, rows, sum = 0;
	unsigned char *pix;

	if (argc < 3 || !(pix = read_picture(argv[1], &w)))
		return 1;
	rows = atol(argv[2]); // kept
	for (long r = 0; r < rows; r++) {
		for (long i = 0; i < w; i++) {
			sum += pix[i] * (r + 1); // removed
		}
	}
	printf("%ld\n", sum); // removed
	return 0;
}

// slice: loop:main:coldscan.c:51
// run: data/picture.txt 3
// run: data/picture.txt 40
// run: data/wide.txt 7
// run: data/missing.txt 2
// status: 1
