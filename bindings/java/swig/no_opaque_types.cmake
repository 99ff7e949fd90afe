# no_opaque_types.cmake - run after SWIG: a SWIGTYPE_*.java class means a C type of the header reached Java as an
# opaque pointer (a parameter without a typemap in ctj_typemaps.i). Deletes them and fails the build.
file(GLOB opaque "${DIR}/SWIGTYPE_*.java")
if(opaque)
  file(REMOVE ${opaque})
  message(FATAL_ERROR "SWIG wrapped C types opaquely (add typemaps in bindings/java/swig/ctj_typemaps.i): ${opaque}")
endif()
