/* phone.c - normalisation of phone numbers written in assorted styles. */
#include "phone.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* North American Numbering Plan: country code 1, then a 3-digit area code
 * starting with 2-9 and a 7-digit local number.  digits[] holds the 10
 * national digits. */
static int nanp_valid(const char *digits)
{
    return digits[0] >= '2';
}

int phone_parse(const char *s, size_t len, Phone *out)
{
    char digits[PHONE_SIZE];
    size_t nd = 0;
    int intl = 0, open_paren = 0, saw_paren = 0;
    size_t i = 0;

    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    while (i < len && isspace((unsigned char)s[i]))
        i++;
    if (i == len || len - i > PHONE_MAX_TEXT)
        return -1;

    if (s[i] == '+') {
        intl = 1;
        i++;
    } else if (len - i > 2 && s[i] == '0' && s[i + 1] == '0') {
        intl = 1;        /* "00" international call prefix */
        i += 2;
    }

    for (; i < len; i++) {
        char c = s[i];
        if (isdigit((unsigned char)c)) {
            if (nd + 1 >= sizeof digits)
                return -1;
            digits[nd++] = c;
        } else if (c == '(') {
            if (saw_paren || open_paren)
                return -1;
            open_paren = saw_paren = 1;
        } else if (c == ')') {
            if (!open_paren)
                return -1;
            open_paren = 0;
        } else if (c == ' ' || c == '-' || c == '.' || c == '/' || c == '\t') {
            /* separator */
        } else {
            return -1;   /* letters, extensions, stray punctuation */
        }
    }
    if (open_paren)
        return -1;
    digits[nd] = '\0';

    if (intl) {
        if (digits[0] == '1') {
            if (nd != 11 || !nanp_valid(digits + 1))
                return -1;
        } else if (digits[0] == '0' || nd < 8 || nd > 15) {
            return -1;
        }
        snprintf(out->num, sizeof out->num, "+%s", digits);
        return 0;
    }

    /* no country code given: assume a North American number */
    if (nd == 11 && digits[0] == '1') {
        if (!nanp_valid(digits + 1))
            return -1;
        snprintf(out->num, sizeof out->num, "+%s", digits);
        return 0;
    }
    if (nd == 10 && nanp_valid(digits)) {
        snprintf(out->num, sizeof out->num, "+1%s", digits);
        return 0;
    }
    return -1;
}
