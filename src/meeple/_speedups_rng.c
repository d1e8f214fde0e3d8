/*
 * RngCore is the compiled base of meeple.engine.rng.Rng: the seed and the
 * counter as two unsigned 64-bit slots, and the draws every game makes most
 * (next64, below, shuffle_in_place), which do exactly what the pure-Python
 * core of rng.py does (SplitMix64 as a counter-based generator; docs/rng.md).
 * tests/engine/test_speedups.py holds the two to the same words, draws and counters.
 */

#include "_speedups.h"

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL

typedef struct {
    PyObject_HEAD
    unsigned long long seed;
    unsigned long long counter;
} RngCoreObject;

static inline uint64_t splitmix_word(uint64_t seed, uint64_t counter_plus_one)
{
    uint64_t z = seed + counter_plus_one * GOLDEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform value in [0, n) for 1 <= n <= 2**64 - 1 (n == 0 stands for 2**64: the word itself). */
static inline uint64_t draw_below(RngCoreObject *self, uint64_t n)
{
    uint64_t threshold = n ? (0 - n) % n : 0; /* 2**64 mod n: the rejected lowest words */
    uint64_t seed = self->seed, counter = self->counter;
    for (;;) {
        counter++;
        uint64_t x = splitmix_word(seed, counter);
        if (x >= threshold) {
            self->counter = counter;
            return n ? x % n : x;
        }
    }
}

/* obj as an unsigned 64-bit integer in *out; ValueError naming ``what`` if it is out of [0, 2**64). */
static int word_of(PyObject *obj, const char *what, unsigned long long *out)
{
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL)
        return -1;
    unsigned long long value = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError))
            PyErr_Format(PyExc_ValueError, "%s must be an integer in [0, 2**64)", what);
        return -1;
    }
    *out = value;
    return 0;
}

static int RngCore_init(RngCoreObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", "counter", NULL};
    PyObject *seed = NULL, *counter = NULL;
    unsigned long long seed_value, counter_value = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:Rng", kwlist, &seed, &counter))
        return -1;
    if (word_of(seed, "seed", &seed_value) < 0 || (counter != NULL && word_of(counter, "counter", &counter_value) < 0))
        return -1;
    self->seed = seed_value;
    self->counter = counter_value;
    return 0;
}

static PyObject *RngCore_next64(RngCoreObject *self, PyObject *Py_UNUSED(ignored))
{
    self->counter++;
    return PyLong_FromUnsignedLongLong(splitmix_word(self->seed, self->counter));
}

/* 2**64, made at import: below(2**64) draws a whole word. */
static PyObject *two_to_64 = NULL;

/* n as an unsigned 64-bit bound for below() (0 stands for exactly 2**64); -1 with an exception set. */
static int bound_of(PyObject *arg, uint64_t *n)
{
    PyObject *index = PyNumber_Index(arg);
    if (index == NULL)
        return -1;
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(index, &overflow);
    if (small == -1 && PyErr_Occurred()) {
        Py_DECREF(index);
        return -1;
    }
    if (!overflow) {
        Py_DECREF(index);
        if (small < 1) {
            PyErr_SetString(PyExc_ValueError, "below() needs n >= 1");
            return -1;
        }
        *n = (uint64_t)small;
        return 0;
    }
    if (overflow < 0) {
        Py_DECREF(index);
        PyErr_SetString(PyExc_ValueError, "below() needs n >= 1");
        return -1;
    }
    unsigned long long big = PyLong_AsUnsignedLongLong(index);
    if (big == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        int equal = PyObject_RichCompareBool(index, two_to_64, Py_EQ);
        Py_DECREF(index);
        if (equal < 0)
            return -1;
        if (!equal) {
            PyErr_SetString(PyExc_ValueError, "below() needs n <= 2**64");
            return -1;
        }
        *n = 0;
        return 0;
    }
    Py_DECREF(index);
    *n = (uint64_t)big;
    return 0;
}

static PyObject *RngCore_below(RngCoreObject *self, PyObject *arg)
{
    uint64_t n;
    if (PyLong_CheckExact(arg)) { /* the common case: a small exact int */
        long long small = PyLong_AsLongLong(arg);
        if (small >= 1)
            return PyLong_FromUnsignedLongLong(draw_below(self, (uint64_t)small));
        if (small == -1 && PyErr_Occurred())
            PyErr_Clear();
    }
    if (bound_of(arg, &n) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(draw_below(self, n));
}

static PyObject *RngCore_shuffle_in_place(RngCoreObject *self, PyObject *items)
{
    Py_ssize_t size = PySequence_Size(items);
    if (size < 0)
        return NULL;
    if (PyList_CheckExact(items)) { /* nothing below runs Python code: the list keeps its size */
        for (Py_ssize_t i = size - 1; i > 0; i--) {
            Py_ssize_t j = (Py_ssize_t)draw_below(self, (uint64_t)i + 1);
            PyObject *a = PyList_GET_ITEM(items, i);
            PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
            PyList_SET_ITEM(items, j, a);
        }
        Py_RETURN_NONE;
    }
    for (Py_ssize_t i = size - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)draw_below(self, (uint64_t)i + 1);
        /* items[i], items[j] = items[j], items[i], as the pure-Python loop does it */
        PyObject *at_j = PySequence_GetItem(items, j);
        PyObject *at_i = at_j ? PySequence_GetItem(items, i) : NULL;
        int failed = at_i == NULL || PySequence_SetItem(items, i, at_j) < 0 || PySequence_SetItem(items, j, at_i) < 0;
        Py_XDECREF(at_j);
        Py_XDECREF(at_i);
        if (failed)
            return NULL;
    }
    Py_RETURN_NONE;
}

static PyMemberDef RngCore_members[] = {
    {"seed", T_ULONGLONG, offsetof(RngCoreObject, seed), 0, "The stream's seed."},
    {"counter", T_ULONGLONG, offsetof(RngCoreObject, counter), 0, "Words drawn so far: the next draw is word ``counter``."},
    {NULL},
};

static PyMethodDef RngCore_methods[] = {
    {"next64", (PyCFunction)RngCore_next64, METH_NOARGS,
     "next64()\n--\n\nReturn the next 64-bit word and advance the counter by one."},
    {"below", (PyCFunction)RngCore_below, METH_O,
     "below(n)\n--\n\nReturn a uniform integer in ``[0, n)`` (``n`` >= 1), without bias."},
    {"shuffle_in_place", (PyCFunction)RngCore_shuffle_in_place, METH_O,
     "shuffle_in_place(items)\n--\n\nFisher-Yates shuffle: for i from len-1 down to 1, swap i with below(i+1)."},
    {NULL},
};

PyTypeObject RngCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meeple._speedups.RngCore",
    .tp_doc = "The seed, the counter and the commonest draws of meeple.engine.rng.Rng, compiled.",
    .tp_basicsize = sizeof(RngCoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)RngCore_init,
    .tp_members = RngCore_members,
    .tp_methods = RngCore_methods,
};

int speedups_rng_init(void)
{
    if (two_to_64 == NULL) {
        PyObject *one = PyLong_FromLong(1), *bits = PyLong_FromLong(64);
        two_to_64 = one && bits ? PyNumber_Lshift(one, bits) : NULL;
        Py_XDECREF(one);
        Py_XDECREF(bits);
        if (two_to_64 == NULL)
            return -1;
    }
    return 0;
}
