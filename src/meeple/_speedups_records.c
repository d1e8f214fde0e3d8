/*
 * The record loop of the log reader, compiled. read_records() does exactly what the pure-Python
 * fast loop meeple.engine.reader._scan_py does, and accepts exactly the same logs: it walks the
 * record frames, checks each link of the BLAKE2b-128 hash chain, decodes each body (the common
 * msgpack subset in C, in its canonical encoding and within the value budget; any other body
 * through meeple.engine.log.decode_body, which decides), checks the record's shape and builds its
 * messages (setting their slots itself where a message has only int, str, bool or bytes fields,
 * else with the decoders of the log's type table). At the first thing amiss it stops and says
 * where, with the body it decoded or the error decoding it raised, and the reader's checking loop
 * goes on from there and names the problem (tests/engine/test_speedups.py holds the two loops to
 * the same results).
 */

#include "_speedups.h"

/* The value a field hook builds from ``v``, for the field's kind (Codec.message_spec): a new
 * reference, or NULL if ``v`` does not fit (an exception is set only on a real error). */
static PyObject *convert(PyObject *kind, PyObject *v)
{
    if (PyType_Check(kind)) {
        if (kind == (PyObject *)&PyTuple_Type) { /* a tuple of exact ints, from an array */
            if (!PyList_CheckExact(v))
                return NULL;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++)
                if (!PyLong_CheckExact(PyList_GET_ITEM(v, i)))
                    return NULL;
            return PyList_AsTuple(v);
        }
        if ((PyObject *)Py_TYPE(v) != kind) /* int, str, bool or bytes, exactly */
            return NULL;
        Py_INCREF(v);
        return v;
    }
    PyObject *tag = PyTuple_GET_ITEM(kind, 0), *sub = PyTuple_GET_ITEM(kind, 1);
    if (tag == Py_None) { /* optional */
        if (v == Py_None) {
            Py_INCREF(v);
            return v;
        }
        return convert(sub, v);
    }
    if (!PyList_CheckExact(v)) /* a tuple of ``sub``, from an array */
        return NULL;
    const Py_ssize_t n = PyList_GET_SIZE(v);
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = convert(sub, PyList_GET_ITEM(v, i));
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

#define MAX_SPEC_FIELDS 16

/* Build the message ``msg`` by its spec (cls, builder, field kinds, field slots): if every field
 * fits its kind, a new ``cls`` with its slots set to the converted values, as the builder would;
 * otherwise the builder's own result (or error). */
static PyObject *build_by_spec(PyObject *spec, PyObject *msg)
{
    PyObject *cls = PyTuple_GET_ITEM(spec, 0), *builder = PyTuple_GET_ITEM(spec, 1),
             *kinds = PyTuple_GET_ITEM(spec, 2), *slots = PyTuple_GET_ITEM(spec, 3);
    const Py_ssize_t k = PyTuple_GET_SIZE(kinds);
    if (PyList_GET_SIZE(msg) != k + 1 || k > MAX_SPEC_FIELDS)
        return PyObject_CallOneArg(builder, msg);
    PyObject *values[MAX_SPEC_FIELDS];
    PyObject *obj = NULL;
    Py_ssize_t done = 0;
    for (; done < k; done++) {
        values[done] = convert(PyTuple_GET_ITEM(kinds, done), PyList_GET_ITEM(msg, done + 1));
        if (values[done] == NULL)
            break;
    }
    if (done == k) {
        obj = PyBaseObject_Type.tp_new((PyTypeObject *)cls, empty_tuple, NULL); /* object.__new__(cls) */
        for (Py_ssize_t j = 0; obj != NULL && j < k; j++) {
            PyObject *slot = PyTuple_GET_ITEM(slots, j);
            if (Py_TYPE(slot)->tp_descr_set(slot, obj, values[j]) < 0)
                Py_CLEAR(obj);
        }
    }
    for (Py_ssize_t j = 0; j < done; j++)
        Py_DECREF(values[j]);
    if (done < k && !PyErr_Occurred()) /* a value that does not fit: the builder names it */
        return PyObject_CallOneArg(builder, msg);
    return obj;
}

/* The message of the array ``msg``: a list whose first item is a non-negative int indexing
 * ``table`` at a decoder or a message spec (not None). Returns a new reference to the decoded
 * message, or NULL with or without an exception set. */
static PyObject *decode_message(PyObject *msg, PyObject *table)
{
    if (!PyList_CheckExact(msg) || PyList_GET_SIZE(msg) < 1)
        return NULL;
    PyObject *index = PyList_GET_ITEM(msg, 0);
    if (!PyLong_CheckExact(index))
        return NULL;
    Py_ssize_t i = PyLong_AsSsize_t(index);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0 || i >= PyTuple_GET_SIZE(table))
        return NULL;
    PyObject *decode = PyTuple_GET_ITEM(table, i);
    if (decode == Py_None)
        return NULL;
    if (PyTuple_CheckExact(decode))
        return build_by_spec(decode, msg);
    return PyObject_CallOneArg(decode, msg);
}

/* -1 on a Python error, else whether ``o`` is the int ``seq`` */
static int is_seq(PyObject *o, Py_ssize_t seq)
{
    long long v;
    int kind = int_value(o, &v);
    return kind < 0 ? -1 : kind == 1 && v == (long long)seq;
}

/* -1 on a Python error, else whether ``o`` is an int >= 0 */
static int is_natural(PyObject *o)
{
    long long v;
    int kind = int_value(o, &v);
    return kind < 0 ? -1 : kind > 0 && v >= 0;
}

/* The exception being raised, as an instance, and cleared; NULL (the exception left set) where it is
 * not an Exception (KeyboardInterrupt, ...), which propagates, as in the pure-Python loops. */
static PyObject *take_exception(void)
{
    if (!PyErr_ExceptionMatches(PyExc_Exception))
        return NULL;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (value == NULL) {
        Py_INCREF(Py_None);
        value = Py_None;
    }
    else if (PyExceptionInstance_Check(value))
        PyException_SetTraceback(value, Py_None); /* the traceback holds the frames, and the body they decoded */
    return value;
}

PyObject *read_records(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *prev_obj, *commands, *events, *decode;
    PyTypeObject *record_type;
    Py_ssize_t pos, every;
    if (!PyArg_ParseTuple(args, "O!nO!O!O!O!On", &PyBytes_Type, &data, &pos, &PyBytes_Type, &prev_obj, &PyTuple_Type,
                          &commands, &PyTuple_Type, &events, &PyType_Type, &record_type, &decode, &every))
        return NULL;
    if (PyBytes_GET_SIZE(prev_obj) != HASH_SIZE || !PyType_IsSubtype(record_type, &PyTuple_Type) || pos < 0 ||
        every < 1) {
        PyErr_SetString(PyExc_ValueError, "read_records: bad arguments");
        return NULL;
    }
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data);
    const Py_ssize_t n = PyBytes_GET_SIZE(data);
    uint8_t prev[HASH_SIZE], before[HASH_SIZE], link[HASH_SIZE];
    memcpy(prev, PyBytes_AS_STRING(prev_obj), HASH_SIZE);

    PyObject *records = PyList_New(0), *checkpoints = PyList_New(0), *hashes = PyList_New(0),
             *offsets = PyList_New(0);
    PyObject *reveal = NULL, *raw = NULL, *error = NULL, *command = NULL, *out = NULL, *record = NULL,
             *stop = NULL, *result = NULL;
    if (!records || !checkpoints || !hashes || !offsets)
        goto fail;
    Py_ssize_t seq = 0;
    while (pos < n) {
        memcpy(before, prev, HASH_SIZE);
        if (reveal != NULL || n - pos < 4)
            goto amiss;
        uint32_t length = ((uint32_t)buf[pos] << 24) | ((uint32_t)buf[pos + 1] << 16) | ((uint32_t)buf[pos + 2] << 8) |
                          (uint32_t)buf[pos + 3];
        if (length <= HASH_SIZE || length > MAX_FRAME || (Py_ssize_t)length > n - pos - 4)
            goto amiss;
        const Py_ssize_t end = pos + 4 + (Py_ssize_t)length, mid = end - HASH_SIZE;
        chain_link(prev, buf + pos + 4, (size_t)(mid - pos - 4), link);
        if (memcmp(link, buf + mid, HASH_SIZE) != 0)
            goto amiss;
        memcpy(prev, link, HASH_SIZE);

        raw = unpack_body(buf + pos + 4, mid - pos - 4, decode);
        if (raw == NULL) { /* decode_body's error, handed to the checking loop with the frame */
            if ((error = take_exception()) == NULL)
                goto fail;
            goto amiss;
        }
        if (!PyList_CheckExact(raw)) {
            if (!PyDict_CheckExact(raw))
                goto amiss;
            reveal = Py_BuildValue("(Onn)", raw, pos, seq); /* checked by the caller */
            Py_CLEAR(raw);
            if (reveal == NULL)
                goto fail;
            pos = end;
            continue;
        }
        if (PyList_GET_SIZE(raw) != 6)
            goto amiss;
        PyObject *rseq = PyList_GET_ITEM(raw, 0), *actor = PyList_GET_ITEM(raw, 1), *cmd = PyList_GET_ITEM(raw, 2),
                 *evs = PyList_GET_ITEM(raw, 3), *rng = PyList_GET_ITEM(raw, 4), *ck = PyList_GET_ITEM(raw, 5);
        int ok = is_seq(rseq, seq);
        if (ok == 1)
            ok = is_natural(rng);
        if (ok < 0)
            goto amiss;
        /* a checkpoint with every ``every``-th record, and nil with the others */
        const int due = (seq + 1) % every == 0;
        if (!ok || !PyLong_CheckExact(actor) || !PyList_CheckExact(evs) || !PyList_CheckExact(cmd) ||
            (due ? !PyBytes_CheckExact(ck) || PyBytes_GET_SIZE(ck) != HASH_SIZE : ck != Py_None))
            goto amiss;
        command = decode_message(cmd, commands);
        if (command == NULL)
            goto amiss;
        const Py_ssize_t k = PyList_GET_SIZE(evs);
        out = PyTuple_New(k);
        if (out == NULL)
            goto fail;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *event = decode_message(PyList_GET_ITEM(evs, j), events);
            if (event == NULL)
                goto amiss;
            PyTuple_SET_ITEM(out, j, event);
        }
        /* what tuple.__new__(Record, (seq, actor, command, events, rng)) builds */
        record = record_type->tp_alloc(record_type, 5);
        if (record == NULL)
            goto fail;
        PyObject *seq_obj = PyLong_FromSsize_t(seq);
        if (seq_obj == NULL)
            goto fail;
        PyTuple_SET_ITEM(record, 0, seq_obj);
        Py_INCREF(actor);
        PyTuple_SET_ITEM(record, 1, actor);
        PyTuple_SET_ITEM(record, 2, command);
        command = NULL;
        PyTuple_SET_ITEM(record, 3, out);
        out = NULL;
        Py_INCREF(rng);
        PyTuple_SET_ITEM(record, 4, rng);
        PyObject *h = PyBytes_FromStringAndSize((const char *)link, HASH_SIZE);
        PyObject *offset = PyLong_FromSsize_t(pos);
        int failed = h == NULL || offset == NULL || PyList_Append(records, record) < 0 ||
                     PyList_Append(checkpoints, ck) < 0 || PyList_Append(hashes, h) < 0 ||
                     PyList_Append(offsets, offset) < 0;
        Py_XDECREF(h);
        Py_XDECREF(offset);
        Py_CLEAR(record);
        Py_CLEAR(raw);
        if (failed)
            goto fail;
        seq++;
        pos = end;
    }
    result = PyTuple_Pack(6, records, checkpoints, hashes, offsets, reveal ? reveal : Py_None, Py_None);
    goto done;

amiss: /* something is wrong at the frame at ``pos``: the checking loop goes on from it, and names it */
    if (PyErr_Occurred()) {
        PyObject *ignored = take_exception(); /* a message that does not decode: the checking loop says why */
        if (ignored == NULL)
            goto fail;
        Py_DECREF(ignored);
    }
    stop = Py_BuildValue("(nny#OO)", pos, seq, (const char *)before, (Py_ssize_t)HASH_SIZE, raw ? raw : Py_None,
                         error ? error : Py_None);
    if (stop == NULL)
        goto fail;
    result = PyTuple_Pack(6, records, checkpoints, hashes, offsets, reveal ? reveal : Py_None, stop);
    goto done;
fail:
    result = NULL;
done:
    Py_XDECREF(records);
    Py_XDECREF(checkpoints);
    Py_XDECREF(hashes);
    Py_XDECREF(offsets);
    Py_XDECREF(reveal);
    Py_XDECREF(raw);
    Py_XDECREF(error);
    Py_XDECREF(command);
    Py_XDECREF(out);
    Py_XDECREF(record);
    Py_XDECREF(stop);
    return result;
}
