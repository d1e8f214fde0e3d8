/*
 * fill_kings: the observation fill of Underground Kings' encoding (meeple.rl.encodings.kings), compiled.
 *
 * The Python fill there is the definition; this writes the same bytes into the same zeroed
 * bytearray and returns the same (index, value) pairs, reading the view's fields by name. The
 * layout (offsets, sizes) and the game's tables (phases, mine sides, squad strengths) come in
 * ``spec``, made once per table by the encoding: nothing about the game is written here but the
 * order of the writes. tests/rl/test_compiled_fill.py holds it to the Python fill, position by
 * position.
 */

#include "_speedups.h"

enum {
    SEATS, WIDTH, O_SEAT, O_PEOPLES, O_PHASE, O_TO_ACT, O_MUST, O_CARDS, O_BACKS, O_DECK_SIZE, O_DECK_TOP,
    O_CENTRAL, O_OWNED, O_OWNED_COUNT, O_DEVELOPED, O_CAMP_SIZE, O_CAMP_TOP, O_SCORES, N_SIDES, OWN_SHOWN,
    CENTRAL_MINES, SLOT, N_PEOPLES, N_STRENGTHS, N_INTS
};
/* spec: the N_INTS ints above, then the phases (a tuple, in the layout's order), the side of a mine
 * by its id (a dict), the side of a mine not in that dict (a callable) and each card's squad strength
 * (bytes). */
#define SPEC_ITEMS (N_INTS + 4)
#define MOST_SEATS 16

static PyObject *s_peoples, *s_phase, *s_turn, *s_must, *s_hand, *s_open_hands, *s_mines, *s_camp, *s_discard,
    *s_hand_backs, *s_developed, *s_deck_size, *s_deck_top, *s_scores, *s_index, *s_owner, *s_mine, *s_stack;

int speedups_fill_init(void)
{
    struct { PyObject **name; const char *text; } names[] = {
        {&s_peoples, "peoples"}, {&s_phase, "phase"}, {&s_turn, "turn"}, {&s_must, "must_draw_deck"},
        {&s_hand, "hand"}, {&s_open_hands, "open_hands"}, {&s_mines, "mines"}, {&s_camp, "camp"},
        {&s_discard, "discard"}, {&s_hand_backs, "hand_backs"}, {&s_developed, "developed"},
        {&s_deck_size, "deck_size"}, {&s_deck_top, "deck_top"}, {&s_scores, "scores"}, {&s_index, "index"},
        {&s_owner, "owner"}, {&s_mine, "mine"}, {&s_stack, "stack"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (*names[i].name == NULL && (*names[i].name = PyUnicode_InternFromString(names[i].text)) == NULL)
            return -1;
    return 0;
}

typedef struct {
    long v[N_INTS];
    PyObject *phases, *side_ids, *side_of;
    int side_table; /* whether side_table holds side_ids */
    const uint8_t *strengths;
    Py_ssize_t n_strengths;
    uint8_t *out;
    Py_ssize_t size;
} Fill;


/* out[i] = v, within the buffer and a byte; -1 with ValueError otherwise. */
static inline int put(Fill *f, long i, long v) { return fill_put(f->out, f->size, i, v, "fill_kings"); }

/* out[i] += 1, within the buffer and a byte; -1 with ValueError otherwise. */
static int bump(Fill *f, long i)
{
    if (i < 0 || i >= f->size || f->out[i] == 255) {
        PyErr_Format(PyExc_ValueError, "fill_kings: a count at %ld is outside the observation's bytes", i);
        return -1;
    }
    f->out[i]++;
    return 0;
}

/* The spec's dict of mine sides by id, copied into an open-addressed table of addresses: a lookup
 * there is a probe or two, where the dict needs an int made for the id, hashed and freed. The ids
 * are of objects the encoding keeps alive, and the dict is held here, so neither identity can pass
 * to another object while the table stands; a dict of another size (or another dict) makes it anew. */
#define SIDE_SLOTS 1024
static PyObject *side_table_dict;
static Py_ssize_t side_table_size;
static struct { uintptr_t key; long side; } side_table[SIDE_SLOTS];

static inline size_t side_slot(uintptr_t key) { return (size_t)((key >> 4) * 0x9E3779B97F4A7C15ull >> 54); }

/* Make the table from ``ids`` where it is not made from it already; 0 where it cannot be (then the dict is read). */
static int side_table_for(PyObject *ids)
{
    if (side_table_dict == ids && side_table_size == PyDict_GET_SIZE(ids))
        return 1;
    Py_CLEAR(side_table_dict);
    memset(side_table, 0, sizeof side_table);
    if (PyDict_GET_SIZE(ids) > SIDE_SLOTS / 2)
        return 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(ids, &pos, &key, &value)) {
        uintptr_t k = (uintptr_t)PyLong_AsVoidPtr(key);
        long v = PyLong_AsLong(value);
        if (PyErr_Occurred() || k == 0) {
            PyErr_Clear();
            memset(side_table, 0, sizeof side_table);
            return 0;
        }
        size_t i = side_slot(k);
        while (side_table[i].key != 0 && side_table[i].key != k)
            i = (i + 1) & (SIDE_SLOTS - 1);
        side_table[i].key = k;
        side_table[i].side = v;
    }
    Py_INCREF(ids);
    side_table_dict = ids;
    side_table_size = PyDict_GET_SIZE(ids);
    return 1;
}

/* The index of mine side ``m``: by its id, else by the spec's callable. */
static int side(Fill *f, PyObject *m, long *v)
{
    if (f->side_table) {
        uintptr_t k = (uintptr_t)m;
        for (size_t i = side_slot(k); side_table[i].key != 0; i = (i + 1) & (SIDE_SLOTS - 1))
            if (side_table[i].key == k) {
                *v = side_table[i].side;
                return 0;
            }
    }
    PyObject *key = PyLong_FromVoidPtr(m);
    if (key == NULL)
        return -1;
    PyObject *got = PyDict_GetItemWithError(f->side_ids, key); /* borrowed */
    Py_DECREF(key);
    if (got != NULL)
        return fill_as_long(got, v);
    if (PyErr_Occurred())
        return -1;
    got = PyObject_CallOneArg(f->side_of, m);
    if (got == NULL)
        return -1;
    int r = fill_as_long(got, v);
    Py_DECREF(got);
    if (r == 0 && (*v < 0 || *v >= f->v[N_SIDES])) {
        PyErr_Format(PyExc_ValueError, "fill_kings: mine side %ld out of range", *v);
        return -1;
    }
    return r;
}

static int strength(Fill *f, PyObject *card, long *v)
{
    long c;
    if (fill_as_long(card, &c) < 0)
        return -1;
    if (c < 0 || c >= f->n_strengths) {
        PyErr_Format(PyExc_ValueError, "fill_kings: no card %ld", c);
        return -1;
    }
    *v = f->strengths[c];
    return 0;
}

/* The view's field ``name`` as a fast sequence (a new reference), or NULL with an error. */
static inline PyObject *field_seq(PyObject *view, PyObject *name)
{
    return fill_field_seq(view, name, "fill_kings: a view field is not a sequence");
}

/* 1 at base + c * stride for each card id c of ``cards``. */
static int ones(Fill *f, PyObject *cards, long base, long stride)
{
    PyObject *seq = PySequence_Fast(cards, "fill_kings: cards are a sequence");
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        long c;
        if (fill_as_long(items[i], &c) < 0 || put(f, base + c * stride, 1) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* Per seat (turned to the observer), how many of its mines show each side: rows of N_SIDES from base. */
static int side_counts(Fill *f, PyObject *view, PyObject *name, long base, long seat)
{
    PyObject *per = field_seq(view, name);
    if (per == NULL)
        return -1;
    long n = f->v[SEATS], sides = f->v[N_SIDES];
    Py_ssize_t count = PySequence_Fast_GET_SIZE(per);
    for (Py_ssize_t s = 0; s < count; s++) {
        PyObject *mines = PySequence_Fast(PySequence_Fast_GET_ITEM(per, s), "fill_kings: mine sides are a sequence");
        if (mines == NULL)
            goto fail;
        long row = base + fill_wrap((long)s - seat, n) * sides;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(mines);
        for (Py_ssize_t i = 0; i < k; i++) {
            long at;
            if (side(f, PySequence_Fast_GET_ITEM(mines, i), &at) < 0 || bump(f, row + at) < 0) {
                Py_DECREF(mines);
                goto fail;
            }
        }
        Py_DECREF(mines);
    }
    Py_DECREF(per);
    return 0;
fail:
    Py_DECREF(per);
    return -1;
}

/* A mine's slot at ``at``: one-hot side, squads on it, one-hot strength of the top squad. */
static int mine_slot(Fill *f, PyObject *m, PyObject *stack, long at)
{
    PyObject *mine = PyObject_GetAttr(m, s_mine);
    if (mine == NULL)
        return -1;
    long s;
    int r = side(f, mine, &s);
    Py_DECREF(mine);
    if (r < 0 || put(f, at + s, 1) < 0)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(stack);
    if (k) {
        long top;
        if (put(f, at + f->v[N_SIDES], (long)k) < 0 || strength(f, PySequence_Fast_GET_ITEM(stack, k - 1), &top) < 0
            || put(f, at + f->v[N_SIDES] + 1 + top, 1) < 0)
            return -1;
    }
    return 0;
}

/* The mines: their stacks' column of ``cards``, the central slots and each owner's, and the counts. */
static int fill_mines(Fill *f, PyObject *view, long seat)
{
    long n = f->v[SEATS], stacks = f->v[O_CARDS] + n, width = f->v[WIDTH];
    long owned[MOST_SEATS] = {0}, central = 0;
    PyObject *mines = field_seq(view, s_mines);
    if (mines == NULL)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(mines);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(mines, i);
        PyObject *stack = field_seq(m, s_stack), *owner = NULL;
        if (stack == NULL)
            goto fail;
        if (ones(f, stack, stacks, width) < 0 || (owner = PyObject_GetAttr(m, s_owner)) == NULL)
            goto fail_stack;
        long at = -1;
        if (owner == Py_None) {
            if (central < f->v[CENTRAL_MINES])
                at = f->v[O_CENTRAL] + central * f->v[SLOT];
            central++;
        } else {
            long o;
            if (fill_as_long(owner, &o) < 0)
                goto fail_owner;
            if (o < 0 || o >= n) {
                PyErr_Format(PyExc_ValueError, "fill_kings: a mine owned by seat %ld of %ld", o, n);
                goto fail_owner;
            }
            if (owned[o] < f->v[OWN_SHOWN])
                at = f->v[O_OWNED] + (fill_wrap(o - seat, n) * f->v[OWN_SHOWN] + owned[o]) * f->v[SLOT];
            owned[o]++;
        }
        if (at >= 0 && mine_slot(f, m, stack, at) < 0)
            goto fail_owner;
        Py_DECREF(owner);
        Py_DECREF(stack);
        continue;
    fail_owner:
        Py_DECREF(owner);
    fail_stack:
        Py_DECREF(stack);
        goto fail;
    }
    Py_DECREF(mines);
    for (long o = 0; o < n; o++)
        if (owned[o] && put(f, f->v[O_OWNED_COUNT] + fill_wrap(o - seat, n), owned[o]) < 0)
            return -1;
    return 0;
fail:
    Py_DECREF(mines);
    return -1;
}

/* The fill proper (fields read by name); -1 with an error set. */
static int fill(Fill *f, PyObject *view, long seat)
{
    long n = f->v[SEATS], width = f->v[WIDTH], v;
    PyObject *o = NULL, *seq = NULL;
    if (put(f, f->v[O_SEAT] + seat, 1) < 0 || (seq = field_seq(view, s_peoples)) == NULL)
        return -1;
    for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(seq); s++) {
        PyObject *index = PyObject_GetAttr(PySequence_Fast_GET_ITEM(seq, s), s_index);
        if (index == NULL)
            goto fail;
        int r = fill_as_long(index, &v);
        Py_DECREF(index);
        if (r < 0 || put(f, f->v[O_PEOPLES] + fill_wrap((long)s - seat, n) * f->v[N_PEOPLES] + v, 1) < 0)
            goto fail;
    }
    Py_CLEAR(seq);
    if ((o = PyObject_GetAttr(view, s_phase)) == NULL)
        return -1;
    long phase = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(f->phases); i++)
        if (PyTuple_GET_ITEM(f->phases, i) == o)
            phase = (long)i;
    Py_CLEAR(o);
    if (phase >= 0 && put(f, f->v[O_PHASE] + phase, 1) < 0)
        return -1;
    if (phase == 1 || phase == 2) { /* play, draw */
        if ((o = PyObject_GetAttr(view, s_turn)) == NULL || fill_as_long(o, &v) < 0
            || put(f, f->v[O_TO_ACT] + fill_wrap(v - seat, n), 1) < 0)
            goto fail;
        Py_CLEAR(o);
    }
    if ((o = PyObject_GetAttr(view, s_must)) == NULL)
        return -1;
    int must = PyObject_IsTrue(o);
    Py_CLEAR(o);
    if (must < 0 || (must && put(f, f->v[O_MUST], 1) < 0))
        return -1;
    if ((o = PyObject_GetAttr(view, s_hand)) == NULL || ones(f, o, f->v[O_CARDS], width) < 0)
        goto fail;
    Py_CLEAR(o);
    if ((seq = field_seq(view, s_open_hands)) == NULL)
        return -1;
    for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(seq); s++)
        if (s != seat && ones(f, PySequence_Fast_GET_ITEM(seq, s), f->v[O_CARDS] + fill_wrap((long)s - seat, n), width) < 0)
            goto fail;
    Py_CLEAR(seq);
    if (fill_mines(f, view, seat) < 0)
        return -1;
    /* the camp: its column of cards, then each pile's size and top squad */
    long camp_column = f->v[O_CARDS] + n + 1;
    if ((seq = field_seq(view, s_camp)) == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        PyObject *pile = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, k), "fill_kings: a camp pile is a sequence");
        if (pile == NULL)
            goto fail;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(pile);
        long top = 0;
        int r = ones(f, pile, camp_column, width);
        if (r == 0 && size)
            r = (put(f, f->v[O_CAMP_SIZE] + k, (long)size) < 0
                 || strength(f, PySequence_Fast_GET_ITEM(pile, size - 1), &top) < 0
                 || put(f, f->v[O_CAMP_TOP] + k * f->v[N_STRENGTHS] + top, 1) < 0) ? -1 : 0;
        Py_DECREF(pile);
        if (r < 0)
            goto fail;
    }
    Py_CLEAR(seq);
    if ((o = PyObject_GetAttr(view, s_discard)) == NULL || ones(f, o, camp_column + 1, width) < 0)
        goto fail;
    Py_CLEAR(o);
    if (side_counts(f, view, s_hand_backs, f->v[O_BACKS], seat) < 0
        || side_counts(f, view, s_developed, f->v[O_DEVELOPED], seat) < 0)
        return -1;
    if ((o = PyObject_GetAttr(view, s_deck_size)) == NULL || fill_as_long(o, &v) < 0 || put(f, f->v[O_DECK_SIZE], v) < 0)
        goto fail;
    Py_CLEAR(o);
    if ((o = PyObject_GetAttr(view, s_deck_top)) == NULL)
        return -1;
    if (o != Py_None && (side(f, o, &v) < 0 || put(f, f->v[O_DECK_TOP] + v, 1) < 0))
        goto fail;
    Py_CLEAR(o);
    return 0;
fail:
    Py_XDECREF(o);
    Py_XDECREF(seq);
    return -1;
}

PyObject *fill_kings(PyObject *self, PyObject *args)
{
    PyObject *spec, *view;
    long seat;
    Fill f;
    if (fill_args(args, "O!OlY:fill_kings", "fill_kings", SPEC_ITEMS, N_INTS, SEATS, MOST_SEATS, f.v, &spec, &view,
                  &seat, &f.out, &f.size) < 0)
        return NULL;
    f.phases = PyTuple_GET_ITEM(spec, N_INTS);
    f.side_ids = PyTuple_GET_ITEM(spec, N_INTS + 1);
    f.side_of = PyTuple_GET_ITEM(spec, N_INTS + 2);
    PyObject *strengths = PyTuple_GET_ITEM(spec, N_INTS + 3);
    if (!PyTuple_Check(f.phases) || !PyDict_Check(f.side_ids) || !PyBytes_Check(strengths)) {
        PyErr_SetString(PyExc_ValueError, "fill_kings: a malformed spec");
        return NULL;
    }
    f.side_table = side_table_for(f.side_ids);
    f.strengths = (const uint8_t *)PyBytes_AS_STRING(strengths);
    f.n_strengths = PyBytes_GET_SIZE(strengths);
    if (fill(&f, view, seat) < 0)
        return NULL;
    /* the scores (may be negative): (index, value) for each that is not 0 */
    PyObject *scores = field_seq(view, s_scores);
    if (scores == NULL)
        return NULL;
    PyObject *extra = PyList_New(0);
    if (extra == NULL)
        goto fail;
    for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(scores); s++) {
        PyObject *pts = PySequence_Fast_GET_ITEM(scores, s);
        int truth = PyObject_IsTrue(pts);
        if (truth < 0)
            goto fail;
        if (!truth)
            continue;
        PyObject *pair = Py_BuildValue("(lO)", f.v[O_SCORES] + fill_wrap((long)s - seat, f.v[SEATS]), pts);
        if (pair == NULL || PyList_Append(extra, pair) < 0) {
            Py_XDECREF(pair);
            goto fail;
        }
        Py_DECREF(pair);
    }
    Py_DECREF(scores);
    return extra;
fail:
    Py_XDECREF(extra);
    Py_DECREF(scores);
    return NULL;
}
