/// @file
/// Symbol visibility: which symbols of alkaid's shared libraries programs can link to.
/// (Not the C Data Interface's export of arrays to other libraries: that is
/// alkaid/c_data/bridge.h.)
///
/// ALKAID_EXPORT marks the public API of alkaid: classes (`class ALKAID_EXPORT Foo`), free
/// functions and variables declared in include/alkaid. Shared libraries are built with hidden
/// visibility, so only what carries the mark is visible to programs that link them.
///
/// On ELF and Mach-O the mark is the same whether the library is being built or used, static or
/// shared, so every translation unit compiles the same way in every configuration. Windows DLLs
/// need dllexport while building and dllimport while using; the build defines ALKAID_DLL (and
/// ALKAID_BUILDING_DLL inside the library) for that case.
#pragma once

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(ALKAID_DLL)
#if defined(ALKAID_BUILDING_DLL)
#define ALKAID_EXPORT __declspec(dllexport)
#else
#define ALKAID_EXPORT __declspec(dllimport)
#endif
#else
#define ALKAID_EXPORT
#endif
#else
#define ALKAID_EXPORT [[gnu::visibility("default")]]
#endif
