/*
 * meeple._speedups: the optional compiled parts of the engine, one C file per concept, all in this
 * one extension module (meeple.engine._compiled loads it, or None where the package was built
 * without a C compiler or MEEPLE_PURE_PYTHON is set; each part then has a pure-Python path with
 * the same results, which tests/engine/test_speedups.py holds them to):
 *
 *   _speedups_blake2b.c  BLAKE2b-128 (RFC 7693): the hash chain of the log format
 *   _speedups_msgpack.c  the msgpack subset record bodies use, and a walk over a header's map
 *   _speedups_records.c  the log reader's record loop (meeple.engine.reader)
 *   _speedups_header.c   the log reader's header frame (meeple.engine.log)
 *   _speedups_rng.c      RngCore, the RNG's draws (meeple.engine.rng)
 *   _speedups_slots.c    SlotBuilder, a builder of frozen slotted values (meeple.engine.copies)
 *   _speedups_fill.c     fill_kings, Underground Kings' observation fill (meeple.rl.encodings.kings)
 *   _speedups_gophers.c  fill_gophers, Gophers' observation fill (meeple.rl.encodings.gophers)
 *
 * _speedups.h declares what they share; this file is the module: its functions and its start.
 */

#include "_speedups.h"

PyObject *empty_tuple; /* created at import */

static PyMethodDef methods[] = {
    {"read_records", read_records, METH_VARARGS,
     "read_records(data, pos, prev, commands, events, record_type, decode, checkpoint_every)\n--\n\n"
     "The record frames of a log from ``pos``: (records, checkpoints, hashes, offsets, reveal, stop).\n"
     "``reveal`` is None or (the decoded map, its offset, its record number); ``stop`` is None at the end,\n"
     "or at the first thing amiss (offset, record number, chain hash before the frame, its decoded body or\n"
     "None, the exception decoding it raised or None). ``commands`` and ``events`` hold, by type index, a\n"
     "decoder, a message spec (cls, builder, field classes, field slots) or None; ``decode`` decodes the\n"
     "bodies the compiled subset does not take (meeple.engine.log.decode_body)."},
    {"read_header", read_header, METH_VARARGS,
     "read_header(data, magic, decode, header_type=None, header_slots=None, cache=None)\n--\n\n"
     "((game, rules, seats, options, seeds, commitment, types, checkpoint_every, engine, format, meta), hash, end,\n"
     "kind, known) of a well-formed header with exactly the known fields, or None (``known``: the kind was in the\n"
     "cache). With ``header_type`` and the slot\n"
     "descriptors of those 11 fields, the first item is a ``header_type`` with its slots set instead. With a\n"
     "``cache`` dict, headers laid out as the writer lays them out are remembered by ``kind``, their bytes\n"
     "but the commitment and seeds, and a header of a kind read before is not decoded again. ``kind`` is None\n"
     "for a header laid out otherwise."},
    {"unpack", unpack, METH_VARARGS,
     "unpack(data, decode)\n--\n\n``decode(data)``, decoded in C where the data is one msgpack value of nil, booleans,\n"
     "ints, 64-bit floats, strings, binary and arrays only (as record bodies are), each in its canonical\n"
     "encoding, with at most 65536 values; else by ``decode`` itself."},
    {"blake2b_128", blake2b_128, METH_VARARGS,
     "blake2b_128(data, key)\n--\n\nBLAKE2b-128 of key || data (the chain link of the log format)."},
    {"fill_kings", fill_kings, METH_VARARGS,
     "fill_kings(spec, view, seat, out)\n--\n\nUnderground Kings' observation of ``view`` for ``seat`` written into ``out``,\n"
     "a zeroed bytearray, as meeple.rl.encodings.kings fills it; returns the (index, value) pairs a byte cannot\n"
     "hold. ``spec`` is the layout and the game's tables, made by that module."},
    {"fill_gophers", fill_gophers, METH_VARARGS,
     "fill_gophers(spec, view, seat, out)\n--\n\nGophers' observation of ``view`` for ``seat`` written into ``out``, a zeroed\n"
     "bytearray, as meeple.rl.encodings.gophers fills it; returns the (index, value) pairs a byte cannot hold.\n"
     "``spec`` is the layout and the game's tables, made by that module."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "meeple._speedups",
                                    "The log reader's record loop, the RNG's draws and a slot builder, compiled (optional).", -1, methods,
                                    NULL, NULL, NULL, NULL};

/* Ready ``type`` and add it to ``mod`` as ``name``; -1 with an exception set on failure. */
static int add_type(PyObject *mod, PyTypeObject *type, const char *name)
{
    if (PyType_Ready(type) < 0)
        return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(mod, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__speedups(void)
{
    if (empty_tuple == NULL && (empty_tuple = PyTuple_New(0)) == NULL)
        return NULL;
    if (speedups_header_init() < 0 || speedups_rng_init() < 0 || speedups_fill_init() < 0
        || speedups_gophers_init() < 0)
        return NULL;
    PyObject *mod = PyModule_Create(&module);
    if (mod == NULL)
        return NULL;
    if (add_type(mod, &RngCoreType, "RngCore") < 0 || add_type(mod, &SlotBuilderType, "SlotBuilder") < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
