/* fabplan — reading CSV files fabplan wrote (RFC 4180): one record split in place
 * (fp_csv_record, fabplan/read.h). */
#include "util/util.h"

/* The bytes that end an unquoted field. */
static const unsigned char field_end[256] = { [0] = 1, [','] = 1, ['\n'] = 1, ['\r'] = 1 };

int fp_csv_record(char **p, char **fields, int max)
{
    if (p == NULL || *p == NULL || (fields == NULL && max > 0))
        return 0;
    char *r = *p, *w = *p;
    int n = 0;
    if (*r == '\0')
        return 0;
    for (;;) {
        char *start = w;
        if (*r == '"') {
            for (r++; *r != '\0';) {
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *w++ = *r++;
                }
            }
        }
        if (w == r) {
            /* no quote taken out of this record yet: the text is not moved */
            while (!field_end[(unsigned char)*r])
                r++;
            w = r;
        } else {
            while (!field_end[(unsigned char)*r])
                *w++ = *r++;
        }
        char end = *r;
        /* the NUL may land where the separator was: advance by what was read */
        *w++ = '\0';
        if (n < max)
            fields[n] = start;
        n++;
        if (end == ',') {
            r++;
            continue;
        }
        if (end == '\r' && *++r == '\n')
            r++;
        else if (end == '\n')
            r++;
        break;
    }
    *p = r;
    return n;
}
