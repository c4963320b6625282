/* phone.h - parsing of phone numbers into a canonical form.
 *
 * Every number is stored in E.164 form: '+', country code, national
 * number, no separators, e.g. "+1 (555) 123-4567" -> "+15551234567".
 * Equal numbers then have equal strings, whatever style a source used.
 */
#ifndef PHONE_H
#define PHONE_H

#include <stddef.h>

#define PHONE_MAX_TEXT 64   /* longest phone number text we accept */
#define PHONE_SIZE 20       /* '+', up to 15 digits, NUL, padding */

typedef struct {
    char num[PHONE_SIZE];
} Phone;

/* Parses the phone number in s[0..len) (surrounding blanks allowed).
 * Returns 0 and stores the canonical form in *out, or -1 if the text is
 * not a plausible phone number. */
int phone_parse(const char *s, size_t len, Phone *out);

#endif
