/* One-line JSON records for the TM1 stream: integers and escaped strings only. A record is
 * never cut: when it outgrows the buffer, what is buffered goes out first and the record goes
 * on (the stream is line-oriented, so a long record is simply a long line). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"

static void drain(tm_json *j)
{
    fwrite(j->buf, 1, j->len, j->out);
    j->len = 0;
}

static void put(tm_json *j, const char *s, size_t n)
{
    while (n > 0) {
        size_t room = sizeof j->buf - j->len, step = n < room ? n : room;
        memcpy(j->buf + j->len, s, step);
        j->len += step;
        s += step;
        n -= step;
        if (j->len == sizeof j->buf)
            drain(j);
    }
}

static void puts_(tm_json *j, const char *s) { put(j, s, strlen(s)); }

static void put_escaped(tm_json *j, const char *s)
{
    put(j, "\"", 1);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(j, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            put(j, esc, 6);
        } else {
            put(j, (const char *)&c, 1);
        }
    }
    put(j, "\"", 1);
}

void tm_json_key(tm_json *j, const char *key)
{
    if (j->need_comma)
        put(j, ",", 1);
    j->need_comma = 1;
    if (key) {
        put_escaped(j, key);
        put(j, ":", 1);
    }
}

void tm_json_begin(tm_json *j, FILE *out, const char *type)
{
    j->out = out;
    j->len = 0;
    j->need_comma = 0;
    put(j, "TM1 {", 5);
    tm_json_str(j, "t", type);
}

void tm_json_str(tm_json *j, const char *key, const char *value)
{
    tm_json_key(j, key);
    put_escaped(j, value);
}

void tm_json_int(tm_json *j, const char *key, int64_t value)
{
    char num[32];
    tm_json_key(j, key);
    snprintf(num, sizeof num, "%" PRId64, value);
    puts_(j, num);
}

void tm_json_uint(tm_json *j, const char *key, uint64_t value)
{
    char num[32];
    tm_json_key(j, key);
    snprintf(num, sizeof num, "%" PRIu64, value);
    puts_(j, num);
}

void tm_json_raw_int(tm_json *j, int64_t v) { tm_json_int(j, NULL, v); }

void tm_json_open(tm_json *j, const char *key, char bracket)
{
    tm_json_key(j, key);
    put(j, &bracket, 1);
    j->need_comma = 0;
}

void tm_json_close(tm_json *j, char bracket)
{
    put(j, &bracket, 1);
    j->need_comma = 1;
}

void tm_json_end(tm_json *j)
{
    put(j, "}\n", 2);
    drain(j);
    fflush(j->out);
}
