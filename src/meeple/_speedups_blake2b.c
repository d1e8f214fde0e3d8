/*
 * BLAKE2b-128, from RFC 7693 (unkeyed, 16-byte digest, no salt or personalisation): the hash the
 * log format defines its chain with (meeple.engine.log.chain_hash). blake2b_128 is the Python
 * entry point (meeple.engine.codec.digest's compiled twin, held to hashlib by
 * tests/engine/test_speedups.py); chain_link and the streaming functions serve the record and
 * header readers.
 */

#include "_speedups.h"

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

static inline uint64_t load64(const uint8_t *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
           ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

#define G(a, b, c, d, x, y)          \
    do {                             \
        v[a] = v[a] + v[b] + (x);    \
        v[d] = rotr64(v[d] ^ v[a], 32); \
        v[c] = v[c] + v[d];          \
        v[b] = rotr64(v[b] ^ v[c], 24); \
        v[a] = v[a] + v[b] + (y);    \
        v[d] = rotr64(v[d] ^ v[a], 16); \
        v[c] = v[c] + v[d];          \
        v[b] = rotr64(v[b] ^ v[c], 63); \
    } while (0)

static void compress(blake2b_state *s, const uint8_t *block, int last)
{
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++)
        m[i] = load64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = s->h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= s->t;
    if (last)
        v[14] = ~v[14];
    /* the rounds unrolled, so the message schedule indexes are constants */
#define ROUND(r)                                                   \
    do {                                                           \
        G(0, 4, 8, 12, m[SIGMA[r][0]], m[SIGMA[r][1]]);            \
        G(1, 5, 9, 13, m[SIGMA[r][2]], m[SIGMA[r][3]]);            \
        G(2, 6, 10, 14, m[SIGMA[r][4]], m[SIGMA[r][5]]);           \
        G(3, 7, 11, 15, m[SIGMA[r][6]], m[SIGMA[r][7]]);           \
        G(0, 5, 10, 15, m[SIGMA[r][8]], m[SIGMA[r][9]]);           \
        G(1, 6, 11, 12, m[SIGMA[r][10]], m[SIGMA[r][11]]);         \
        G(2, 7, 8, 13, m[SIGMA[r][12]], m[SIGMA[r][13]]);          \
        G(3, 4, 9, 14, m[SIGMA[r][14]], m[SIGMA[r][15]]);          \
    } while (0)
    ROUND(0);
    ROUND(1);
    ROUND(2);
    ROUND(3);
    ROUND(4);
    ROUND(5);
    ROUND(6);
    ROUND(7);
    ROUND(8);
    ROUND(9);
    ROUND(10);
    ROUND(11);
#undef ROUND
    for (int i = 0; i < 8; i++)
        s->h[i] ^= v[i] ^ v[i + 8];
}

void blake2b_init(blake2b_state *s)
{
    memcpy(s->h, IV, sizeof IV);
    s->h[0] ^= 0x01010000ULL ^ HASH_SIZE; /* depth 1, fanout 1, no key, 16-byte digest */
    s->t = 0;
    s->filled = 0;
}

void blake2b_update(blake2b_state *s, const uint8_t *in, size_t len)
{
    while (len > 0) {
        if (s->filled == 128) { /* the buffer is compressed only once more input follows */
            s->t += 128;
            compress(s, s->buf, 0);
            s->filled = 0;
        }
        size_t take = 128 - s->filled;
        if (take > len)
            take = len;
        memcpy(s->buf + s->filled, in, take);
        s->filled += take;
        in += take;
        len -= take;
    }
}

void blake2b_final(blake2b_state *s, uint8_t out[HASH_SIZE])
{
    s->t += s->filled;
    memset(s->buf + s->filled, 0, 128 - s->filled);
    compress(s, s->buf, 1);
    for (int i = 0; i < HASH_SIZE; i++)
        out[i] = (uint8_t)(s->h[i / 8] >> (8 * (i % 8)));
}

/* BLAKE2b-128 of prev || body: one link of the chain. */
void chain_link(const uint8_t *prev, const uint8_t *body, size_t len, uint8_t out[HASH_SIZE])
{
    blake2b_state s;
    blake2b_init(&s);
    blake2b_update(&s, prev, HASH_SIZE);
    blake2b_update(&s, body, len);
    blake2b_final(&s, out);
}

PyObject *blake2b_128(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data, key;
    if (!PyArg_ParseTuple(args, "y*y*", &data, &key))
        return NULL;
    blake2b_state s;
    uint8_t out[HASH_SIZE];
    blake2b_init(&s);
    blake2b_update(&s, key.buf, (size_t)key.len);
    blake2b_update(&s, data.buf, (size_t)data.len);
    blake2b_final(&s, out);
    PyBuffer_Release(&data);
    PyBuffer_Release(&key);
    return PyBytes_FromStringAndSize((const char *)out, HASH_SIZE);
}
