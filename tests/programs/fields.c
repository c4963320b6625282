/* Struct fields as variables (--schemes all,fields): a store to a field of a struct is an
 * assignment of it, one variable per function and field, named TAG.MEMBER at the line of the
 * function's first store to it. */
#include <stdio.h>
#include <stdlib.h>

struct image {
	int width, height; /* the header's size */
	double gamma;
	struct { int rows, cols; } tile; /* a nested anonymous struct: its own TAG is "anon" */
	short pixels[4];   /* an element of an array field is no field */
};

typedef struct {
	long bytes;
} counter_t;               /* an anonymous struct named by its typedef */

struct flags {
	unsigned ready : 1, mode : 3; /* bit-fields share an LLVM field: named by number */
	int level;
};

union word {
	int i;
	float f;
};

static struct image shared; /* a global struct: its fields by constant address */

static void read_header(struct image *img, int w, int h)
{
	img->width = w;
	img->height = h;
	img->height = img->height * 2;
	img->gamma = 0.5 * w;
	img->tile.rows = h / 2;
	for (int i = 0; i < 4; i++)
		img->pixels[i] = (short)(i * w);
}

static void count(counter_t *c, int n)
{
	for (int i = 0; i < n; i++)
		c->bytes += i;
}

int main(int argc, char **argv)
{
	struct image *imgs = calloc(3, sizeof *imgs);
	counter_t c = {0};
	struct flags fl = {0};
	union word u;
	int w = argc > 1 ? atoi(argv[1]) : 1;

	for (int k = 0; k < 3; k++)
		read_header(&imgs[k], w + k, 10 * (k + 1));
	count(&c, 5);
	shared.width = w * 100;
	fl.level = w;
	fl.mode = 5;
	u.i = w;
	printf("%d %d %ld %d %g\n", imgs[2].width, imgs[2].height, c.bytes, fl.level + fl.mode,
	       (double)u.f > 0 ? 1.0 : 0.0);
	free(imgs);
	return 0;
}
// schemes: all,fields
// run: 4
// three images: widths 4 5 6, heights 10 20 30 then doubled
// expect: value:read_header:fields.c:32:image.width.sum = 15
// expect: value:read_header:fields.c:32:image.width.first = 4
// expect: value:read_header:fields.c:33:image.height.count = 6
// expect: value:read_header:fields.c:33:image.height.sum = 180
// expect: value:read_header:fields.c:35:image.gamma.sum = 7.5
// expect: value:read_header:fields.c:36:anon.0.sum = 30
// the += of a field through a pointer: 0 + 1 + 2 + 3 + 4, each partial sum assigned
// expect: value:count:fields.c:44:counter_t.bytes.sum = 20
// expect: value:count:fields.c:44:counter_t.bytes.count = 5
// a global struct
// expect: value:main:fields.c:58:image.width.first = 400
// bit-fields: the struct's fields are named by number (the level its second LLVM field)
// expect: value:main:fields.c:59:flags.1.first = 4
// absent: value:read_header:fields.c:38:
// absent: value:main:fields.c:61:
