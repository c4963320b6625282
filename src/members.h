/*
 * members.h: the names of a module's struct members, as its debug information gives them, for
 * the value scheme's struct fields (instrument.c: a store to a field of a struct is an
 * assignment of that field, as the Mantis papers count class fields beside locals).
 * Requires: the module's debug information (without it, every field is named by its number).
 * Invalidates nothing.
 */
#ifndef MANTIS_MEMBERS_H
#define MANTIS_MEMBERS_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

/* The structs a module's debug information describes. */
struct members;

/*
 * Reads the struct types reachable from the module's variables (those llvm.dbg.value and
 * llvm.dbg.declare name, and the globals'), through pointers, typedefs, qualifiers, arrays and
 * members. Returns the table; owned by the caller (members_free).
 */
struct members *members_read(LLVMModuleRef mod);

/*
 * Returns the name of field index of the IR struct type st (clang's "struct.TAG", or
 * "struct.TAG.N" once modules were linked) as "TAG.MEMBER", and sets *type to the member's
 * debug type (NULL when unknown). Where the debug information has no struct of that tag with
 * as many members as st has fields and no bit-field (bit-fields share LLVM fields), the member
 * is named by its number, "TAG.INDEX". Returns NULL for a type that is not a named struct (a
 * union, an anonymous literal struct). The name is owned by the caller.
 */
char *members_name(const struct members *t, LLVMTypeRef st, unsigned index,
		   LLVMMetadataRef *type);

/* Frees the table (NULL is ignored). */
void members_free(struct members *t);

#endif
