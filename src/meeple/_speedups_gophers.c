/*
 * fill_gophers: the observation fill of Gophers' encoding (meeple.rl.encodings.gophers), compiled.
 *
 * The Python fill there is the definition; this writes the same bytes into the same zeroed
 * bytearray and returns the same (index, value) pairs, in the same order, reading the view's
 * fields by name. The layout (offsets, caps) and the game's tables (the phases, the card faces)
 * come in ``spec``, made once per table by the encoding: nothing about the game is written here
 * but the order of the writes. tests/rl/test_compiled_fill.py holds it to the Python fill,
 * position by position.
 */

#include "_speedups.h"

enum {
    SEATS, HOLES, SPREADS, ROLLS, MOST, HAND_CAP, SCORE_CAP, IDLE_CAP, O_SEAT, O_PHASE, O_SPREAD, O_ROLL, O_TO_ACT,
    O_POSITIONS, O_HAND, O_SIZES, O_KNOWN, O_DECK_SIZE, O_KNOWN_DECK, O_PLUS, O_MINUS, O_BANK, O_DIGS, O_BASKETS,
    O_GIFT, O_GIFT_HIDDEN, O_ADDED, O_SUBTRACTED, O_JUMPED, O_FLAGS, O_SCORES, O_IDLE, COLLECT, MOVERS, N_INTS
};
/* spec: the N_INTS ints above (COLLECT the index of the collect phase, MOVERS a bit mask of the
 * indexes of the phases where the mover acts), then the phases (a tuple, in the layout's order)
 * and the card faces (a tuple, in the order of their counts). */
#define SPEC_ITEMS (N_INTS + 2)
#define MOST_SEATS 16

static PyObject *s_phase, *s_spread, *s_roll, *s_collectors, *s_current, *s_positions, *s_hand, *s_hand_sizes,
    *s_known_hands, *s_plus, *s_minus, *s_bank, *s_own_digs, *s_baskets, *s_scores, *s_deck_size, *s_known_deck,
    *s_gift_offer, *s_laid, *s_turn, *s_jumped, *s_turned, *s_productive, *s_gift_used, *s_idle;

int speedups_gophers_init(void)
{
    struct { PyObject **name; const char *text; } names[] = {
        {&s_phase, "phase"}, {&s_spread, "spread"}, {&s_roll, "roll"}, {&s_collectors, "collectors"},
        {&s_current, "current"}, {&s_positions, "positions"}, {&s_hand, "hand"}, {&s_hand_sizes, "hand_sizes"},
        {&s_known_hands, "known_hands"}, {&s_plus, "plus"}, {&s_minus, "minus"}, {&s_bank, "bank"},
        {&s_own_digs, "own_digs"}, {&s_baskets, "baskets"}, {&s_scores, "scores"}, {&s_deck_size, "deck_size"},
        {&s_known_deck, "known_deck"}, {&s_gift_offer, "gift_offer"}, {&s_laid, "laid"}, {&s_turn, "turn"},
        {&s_jumped, "jumped"}, {&s_turned, "turned"}, {&s_productive, "productive"}, {&s_gift_used, "gift_used"},
        {&s_idle, "idle"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (*names[i].name == NULL && (*names[i].name = PyUnicode_InternFromString(names[i].text)) == NULL)
            return -1;
    return 0;
}

typedef struct {
    long v[N_INTS];
    PyObject *phases;
    uint8_t *out;
    Py_ssize_t size;
    long faces; /* how many faces a row of counts has */
} Fill;


/* out[i] = v, within the buffer and a byte; -1 with ValueError otherwise. */
static inline int put(Fill *f, long i, long v) { return fill_put(f->out, f->size, i, v, "fill_gophers"); }

/* The view's int field ``name``. */
static int field_long(PyObject *view, PyObject *name, long *v)
{
    PyObject *o = PyObject_GetAttr(view, name);
    if (o == NULL)
        return -1;
    int r = fill_as_long(o, v);
    Py_DECREF(o);
    return r;
}

/* The card faces by address, in an open-addressed table: a probe or two per card. The faces tuple
 * is held here, so no address in the table can pass to another object while it stands. */
#define FACE_SLOTS 128
static PyObject *face_tuple;
static struct { uintptr_t key; long rank; } face_table[FACE_SLOTS];

static inline size_t face_slot(uintptr_t key) { return (size_t)((key >> 4) * 0x9E3779B97F4A7C15ull >> 57); }

static int face_table_for(PyObject *faces)
{
    if (face_tuple == faces)
        return 0;
    if (PyTuple_GET_SIZE(faces) > FACE_SLOTS / 2 || PyTuple_GET_SIZE(faces) > 255) {
        PyErr_SetString(PyExc_ValueError, "fill_gophers: too many card faces");
        return -1;
    }
    Py_CLEAR(face_tuple);
    memset(face_table, 0, sizeof face_table);
    for (Py_ssize_t r = 0; r < PyTuple_GET_SIZE(faces); r++) {
        uintptr_t k = (uintptr_t)PyTuple_GET_ITEM(faces, r);
        size_t i = face_slot(k);
        while (face_table[i].key != 0 && face_table[i].key != k)
            i = (i + 1) & (FACE_SLOTS - 1);
        if (face_table[i].key == 0) { /* a face listed twice keeps its first place, as a dict of them would not: */
            face_table[i].key = k;    /* the encoding lists each face once */
            face_table[i].rank = (long)r;
        }
    }
    Py_INCREF(faces);
    face_tuple = faces;
    return 0;
}

/* The place of card ``c`` among the faces; -1 with ValueError for anything else. */
static inline long rank(PyObject *c)
{
    uintptr_t k = (uintptr_t)c;
    for (size_t i = face_slot(k); face_table[i].key != 0; i = (i + 1) & (FACE_SLOTS - 1))
        if (face_table[i].key == k)
            return face_table[i].rank;
    PyErr_Format(PyExc_ValueError, "fill_gophers: %R is no card face", c);
    return -1;
}

/* The counts of each face of ``cards`` (None skipped), each up to MOST, into the row at ``at``, which
 * is zero: as the Python fill's row replaces a row of zeros. ``hidden`` (may be NULL) counts the Nones. */
static int count_row(Fill *f, PyObject *cards, long at, long *hidden)
{
    PyObject *seq = PySequence_Fast(cards, "fill_gophers: cards are a sequence");
    if (seq == NULL)
        return -1;
    if (at < 0 || at + f->faces > f->size) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "fill_gophers: a row at %ld is outside the observation's bytes", at);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    uint8_t *row = f->out + at;
    long most = f->v[MOST];
    for (Py_ssize_t i = 0; i < n; i++) {
        if (items[i] == Py_None) {
            if (hidden)
                ++*hidden;
            continue;
        }
        long r = rank(items[i]);
        if (r < 0) {
            Py_DECREF(seq);
            return -1;
        }
        if (row[r] < most)
            row[r]++;
    }
    Py_DECREF(seq);
    return 0;
}

/* Per seat from the observer (seats below SEATS), the counts of each face in its cards, from ``at``. */
static int rows(Fill *f, PyObject *view, PyObject *name, long at, long seat)
{
    PyObject *per = fill_field_seq(view, name, "fill_gophers: a per-seat field is not a sequence");
    if (per == NULL)
        return -1;
    long n = f->v[SEATS];
    Py_ssize_t count = PySequence_Fast_GET_SIZE(per);
    for (Py_ssize_t s = 0; s < count && s < n; s++) {
        PyObject *cards = PySequence_Fast_GET_ITEM(per, s);
        int truth = PyObject_IsTrue(cards);
        if (truth < 0 || (truth && count_row(f, cards, at + fill_wrap((long)s - seat, n) * f->faces, NULL) < 0)) {
            Py_DECREF(per);
            return -1;
        }
    }
    Py_DECREF(per);
    return 0;
}

/* (index, value) appended to ``extra``. */
static int wide(PyObject *extra, long i, PyObject *value)
{
    PyObject *pair = Py_BuildValue("(lO)", i, value);
    if (pair == NULL)
        return -1;
    int r = PyList_Append(extra, pair);
    Py_DECREF(pair);
    return r;
}

/* The view's field ``name`` as a fast sequence (a new reference), or NULL with an error. */
static inline PyObject *field_seq(PyObject *view, PyObject *name)
{
    return fill_field_seq(view, name, "fill_gophers: a view field is not a sequence");
}

/* Each int of the view's sequence ``name`` (the first SEATS of them when ``all`` is 0), by seat:
 * what ``write`` makes of it. */
typedef int (*SeatWrite)(Fill *f, long s, long v, long seat, PyObject *item, PyObject *extra);

static int per_seat(Fill *f, PyObject *view, PyObject *name, long seat, int all, SeatWrite write, PyObject *extra)
{
    PyObject *seq = field_seq(view, name);
    if (seq == NULL)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t s = 0; s < count && (all || s < f->v[SEATS]); s++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, s);
        long v;
        if (fill_as_long(item, &v) < 0 || write(f, (long)s, v, seat, item, extra) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static int write_position(Fill *f, long s, long h, long seat, PyObject *item, PyObject *extra)
{
    return h >= 0 ? put(f, f->v[O_POSITIONS] + fill_wrap(s - seat, f->v[SEATS]) * f->v[HOLES] + h, 1) : 0;
}

static int write_size(Fill *f, long s, long k, long seat, PyObject *item, PyObject *extra)
{
    return put(f, f->v[O_SIZES] + fill_wrap(s - seat, f->v[SEATS]), k < f->v[HAND_CAP] ? k : f->v[HAND_CAP]);
}

static int write_dig(Fill *f, long s, long d, long seat, PyObject *item, PyObject *extra)
{
    return put(f, f->v[O_DIGS] + fill_wrap(s - seat, f->v[SEATS]), d);
}

static int write_basket(Fill *f, long s, long b, long seat, PyObject *item, PyObject *extra)
{
    long n = f->v[SEATS];
    return put(f, f->v[O_BASKETS] + fill_wrap(s - seat, n) * n + fill_wrap(b - seat, n), 1);
}

static int write_jumped(Fill *f, long i, long s, long seat, PyObject *item, PyObject *extra)
{
    return put(f, f->v[O_JUMPED] + fill_wrap(s - seat, f->v[SEATS]), 1);
}

static int write_score(Fill *f, long s, long v, long seat, PyObject *item, PyObject *extra)
{
    long cap = f->v[SCORE_CAP], at = f->v[O_SCORES] + fill_wrap(s - seat, f->v[SEATS]);
    v = v < -cap ? -cap : v > cap ? cap : v;
    if (0 <= v && v <= 255)
        return put(f, at, v);
    PyObject *value = PyLong_FromLong(v);
    if (value == NULL)
        return -1;
    int r = wide(extra, at, value);
    Py_DECREF(value);
    return r;
}

/* The view's field ``name`` (a truth value) as 0 or 1 at ``at``, as the Python fill writes a bool. */
static int flag(Fill *f, PyObject *obj, PyObject *name, long at)
{
    long v;
    return field_long(obj, name, &v) < 0 ? -1 : put(f, at, v);
}

/* The fill proper (fields read by name), the values a byte cannot hold appended to ``extra``. */
static int fill(Fill *f, PyObject *view, long seat, PyObject *extra)
{
    long n = f->v[SEATS], v;
    PyObject *o = NULL;
    if (put(f, f->v[O_SEAT] + seat, 1) < 0 || (o = PyObject_GetAttr(view, s_phase)) == NULL)
        return -1;
    long phase = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(f->phases); i++)
        if (PyTuple_GET_ITEM(f->phases, i) == o) {
            phase = (long)i;
            break;
        }
    Py_CLEAR(o);
    if (phase < 0) {
        PyErr_SetString(PyExc_ValueError, "fill_gophers: the view's phase is none of the layout's");
        return -1;
    }
    if (put(f, f->v[O_PHASE] + phase, 1) < 0)
        return -1;
    if (field_long(view, s_spread, &v) < 0 || (1 <= v && v <= f->v[SPREADS] && put(f, f->v[O_SPREAD] + v - 1, 1) < 0))
        return -1;
    if (field_long(view, s_roll, &v) < 0 || (1 <= v && v <= f->v[ROLLS] && put(f, f->v[O_ROLL] + v - 1, 1) < 0))
        return -1;
    int to_act = 0;
    if (phase == f->v[COLLECT]) {
        PyObject *collectors = field_seq(view, s_collectors);
        if (collectors == NULL)
            return -1;
        if (PySequence_Fast_GET_SIZE(collectors)) {
            to_act = 1;
            int r = fill_as_long(PySequence_Fast_GET_ITEM(collectors, 0), &v);
            Py_DECREF(collectors);
            if (r < 0 || put(f, f->v[O_TO_ACT] + fill_wrap(v - seat, n), 1) < 0)
                return -1;
        } else
            Py_DECREF(collectors);
    }
    if (!to_act && phase < 63 && (f->v[MOVERS] >> phase & 1)
        && (field_long(view, s_current, &v) < 0 || put(f, f->v[O_TO_ACT] + fill_wrap(v - seat, n), 1) < 0))
        return -1;
    if (per_seat(f, view, s_positions, seat, 1, write_position, extra) < 0)
        return -1;
    if ((o = PyObject_GetAttr(view, s_hand)) == NULL || count_row(f, o, f->v[O_HAND], NULL) < 0)
        goto fail;
    Py_CLEAR(o);
    if (per_seat(f, view, s_hand_sizes, seat, 0, write_size, extra) < 0
        || rows(f, view, s_known_hands, f->v[O_KNOWN], seat) < 0
        || rows(f, view, s_plus, f->v[O_PLUS], seat) < 0 || rows(f, view, s_minus, f->v[O_MINUS], seat) < 0)
        return -1;
    if ((o = PyObject_GetAttr(view, s_bank)) == NULL || count_row(f, o, f->v[O_BANK], NULL) < 0)
        goto fail;
    Py_CLEAR(o);
    if (per_seat(f, view, s_own_digs, seat, 0, write_dig, extra) < 0
        || per_seat(f, view, s_baskets, seat, 0, write_basket, extra) < 0
        || per_seat(f, view, s_scores, seat, 0, write_score, extra) < 0)
        return -1;
    if ((o = PyObject_GetAttr(view, s_deck_size)) == NULL || fill_as_long(o, &v) < 0)
        goto fail;
    if (0 <= v && v <= 255)
        f->out[f->v[O_DECK_SIZE]] = (uint8_t)v;
    else if (wide(extra, f->v[O_DECK_SIZE], o) < 0)
        goto fail;
    Py_CLEAR(o);
    /* the known deck: (place, card) pairs, the cards counted */
    PyObject *known = field_seq(view, s_known_deck);
    if (known == NULL)
        return -1;
    uint8_t *row = f->out + f->v[O_KNOWN_DECK];
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(known); i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(known, i), *card;
        long r;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "fill_gophers: a known deck place is a (place, card) pair");
            Py_DECREF(known);
            return -1;
        }
        card = PyTuple_GET_ITEM(pair, 1);
        if (card == Py_None)
            continue;
        if ((r = rank(card)) < 0) {
            Py_DECREF(known);
            return -1;
        }
        if (row[r] < f->v[MOST])
            row[r]++;
    }
    Py_DECREF(known);
    long hidden = 0;
    if ((o = PyObject_GetAttr(view, s_gift_offer)) == NULL || count_row(f, o, f->v[O_GIFT], &hidden) < 0)
        goto fail;
    Py_CLEAR(o);
    if (hidden && put(f, f->v[O_GIFT_HIDDEN], hidden) < 0)
        return -1;
    if ((o = PyObject_GetAttr(view, s_laid)) == NULL)
        return -1;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) {
        PyErr_SetString(PyExc_ValueError, "fill_gophers: the laid cards are (added, subtracted)");
        goto fail;
    }
    if (count_row(f, PyTuple_GET_ITEM(o, 0), f->v[O_ADDED], NULL) < 0
        || count_row(f, PyTuple_GET_ITEM(o, 1), f->v[O_SUBTRACTED], NULL) < 0)
        goto fail;
    Py_CLEAR(o);
    if ((o = PyObject_GetAttr(view, s_turn)) == NULL || per_seat(f, o, s_jumped, seat, 1, write_jumped, extra) < 0
        || flag(f, view, s_turned, f->v[O_FLAGS]) < 0 || flag(f, view, s_productive, f->v[O_FLAGS] + 1) < 0
        || flag(f, o, s_gift_used, f->v[O_FLAGS] + 2) < 0)
        goto fail;
    Py_CLEAR(o);
    if ((o = PyObject_GetAttr(view, s_idle)) == NULL || fill_as_long(o, &v) < 0)
        goto fail;
    Py_CLEAR(o);
    if (0 <= v && v <= 255)
        return put(f, f->v[O_IDLE], v);
    PyObject *capped = PyLong_FromLong(v < f->v[IDLE_CAP] ? v : f->v[IDLE_CAP]);
    if (capped == NULL)
        return -1;
    int r = wide(extra, f->v[O_IDLE], capped);
    Py_DECREF(capped);
    return r;
fail:
    Py_XDECREF(o);
    return -1;
}

PyObject *fill_gophers(PyObject *self, PyObject *args)
{
    PyObject *spec, *view;
    long seat;
    Fill f;
    if (fill_args(args, "O!OlY:fill_gophers", "fill_gophers", SPEC_ITEMS, N_INTS, SEATS, MOST_SEATS, f.v, &spec,
                  &view, &seat, &f.out, &f.size) < 0)
        return NULL;
    f.phases = PyTuple_GET_ITEM(spec, N_INTS);
    PyObject *faces = PyTuple_GET_ITEM(spec, N_INTS + 1);
    if (!PyTuple_Check(f.phases) || !PyTuple_Check(faces) || f.v[MOST] < 0 || f.v[MOST] > 255) {
        PyErr_SetString(PyExc_ValueError, "fill_gophers: a malformed spec");
        return NULL;
    }
    if (face_table_for(faces) < 0)
        return NULL;
    f.faces = (long)PyTuple_GET_SIZE(faces);
    if (f.v[O_DECK_SIZE] < 0 || f.v[O_DECK_SIZE] >= f.size || f.v[O_KNOWN_DECK] < 0
        || f.v[O_KNOWN_DECK] + f.faces > f.size) {
        PyErr_SetString(PyExc_ValueError, "fill_gophers: the layout is outside the observation's bytes");
        return NULL;
    }
    PyObject *extra = PyList_New(0);
    if (extra == NULL)
        return NULL;
    if (fill(&f, view, seat, extra) < 0) {
        Py_DECREF(extra);
        return NULL;
    }
    return extra;
}
