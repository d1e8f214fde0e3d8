/*
 * SlotBuilder(cls, slots, fallback) is a callable that builds a ``cls`` from its fields, given
 * positionally, by setting its slots, as meeple.engine.copies.builder's Python function does for a
 * slotted attrs class whose __init__ only sets its fields: the same object, without a Python frame
 * or a call per slot. ``slots`` are the fields' member descriptors (object slots of ``cls`` or of
 * its bases), in order; a call with keywords or another number of arguments goes to ``fallback``
 * (the Python builder), which takes or refuses it as it would.
 */

#include "_speedups.h"

#define MAX_BUILT_SLOTS 32

typedef struct {
    PyObject_HEAD
    PyTypeObject *cls;
    PyObject *fallback;
    Py_ssize_t n;
    Py_ssize_t offsets[MAX_BUILT_SLOTS];
    vectorcallfunc vectorcall;
} SlotBuilderObject;

static PyObject *SlotBuilder_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    SlotBuilderObject *self = (SlotBuilderObject *)callable;
    const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (n != self->n || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0))
        return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
    PyObject *obj = self->cls->tp_alloc(self->cls, 0); /* zeroed: every slot empty */
    if (obj == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(args[i]);
        *(PyObject **)((char *)obj + self->offsets[i]) = args[i];
    }
    return obj;
}

static PyObject *SlotBuilder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *slots, *fallback;
    static char *kwlist[] = {"cls", "slots", "fallback", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!O:SlotBuilder", kwlist, &PyType_Type, &cls, &PyTuple_Type,
                                     &slots, &fallback))
        return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(slots);
    if (n > MAX_BUILT_SLOTS) {
        PyErr_Format(PyExc_ValueError, "SlotBuilder builds values of at most %d slots", MAX_BUILT_SLOTS);
        return NULL;
    }
    PyTypeObject *kind = (PyTypeObject *)cls;
    if (kind->tp_alloc == NULL || kind->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_Format(PyExc_TypeError, "%s is not built by object.__new__", kind->tp_name);
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "the fallback must be callable");
        return NULL;
    }
    SlotBuilderObject *self = (SlotBuilderObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = PyTuple_GET_ITEM(slots, i);
        if (!PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
            PyErr_SetString(PyExc_TypeError, "slots must be member descriptors");
            Py_DECREF(self);
            return NULL;
        }
        PyMemberDescrObject *md = (PyMemberDescrObject *)d;
        if (md->d_member->type != T_OBJECT_EX || (md->d_member->flags & READONLY) ||
            !PyType_IsSubtype(kind, md->d_common.d_type) || md->d_member->offset < (Py_ssize_t)sizeof(PyObject) ||
            md->d_member->offset + (Py_ssize_t)sizeof(PyObject *) > kind->tp_basicsize) {
            PyErr_Format(PyExc_TypeError, "%R is not an object slot of %s", d, kind->tp_name);
            Py_DECREF(self);
            return NULL;
        }
        for (Py_ssize_t j = 0; j < i; j++)
            if (self->offsets[j] == md->d_member->offset) {
                PyErr_Format(PyExc_TypeError, "%R is given twice", d);
                Py_DECREF(self);
                return NULL;
            }
        self->offsets[i] = md->d_member->offset;
    }
    Py_INCREF(cls);
    self->cls = kind;
    Py_INCREF(fallback);
    self->fallback = fallback;
    self->n = n;
    self->vectorcall = SlotBuilder_vectorcall;
    return (PyObject *)self;
}

static int SlotBuilder_traverse(SlotBuilderObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cls);
    Py_VISIT(self->fallback);
    return 0;
}

static int SlotBuilder_clear(SlotBuilderObject *self)
{
    Py_CLEAR(self->cls);
    Py_CLEAR(self->fallback);
    return 0;
}

static void SlotBuilder_dealloc(SlotBuilderObject *self)
{
    PyObject_GC_UnTrack(self);
    SlotBuilder_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *SlotBuilder_repr(SlotBuilderObject *self)
{
    return PyUnicode_FromFormat("<SlotBuilder of %s>", self->cls ? self->cls->tp_name : "nothing");
}

static PyMemberDef SlotBuilder_members[] = {
    {"cls", T_OBJECT, offsetof(SlotBuilderObject, cls), READONLY, "The class built."},
    {"fallback", T_OBJECT, offsetof(SlotBuilderObject, fallback), READONLY,
     "What builds it from keywords or another number of arguments."},
    {NULL},
};

PyTypeObject SlotBuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meeple._speedups.SlotBuilder",
    .tp_doc = "SlotBuilder(cls, slots, fallback)\n--\n\n"
              "A builder of ``cls`` from all its fields, positionally, that sets the slots ``slots`` "
              "(member descriptors, in order); other calls go to ``fallback``.",
    .tp_basicsize = sizeof(SlotBuilderObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = SlotBuilder_new,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(SlotBuilderObject, vectorcall),
    .tp_traverse = (traverseproc)SlotBuilder_traverse,
    .tp_clear = (inquiry)SlotBuilder_clear,
    .tp_dealloc = (destructor)SlotBuilder_dealloc,
    .tp_repr = (reprfunc)SlotBuilder_repr,
    .tp_members = SlotBuilder_members,
};
