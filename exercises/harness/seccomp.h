/* seccomp.h: what both of the workbook's system-call filters (the sandbox's, sandbox_box.c,
 * and a sealed case's, seal.c) need to read a call: the architecture they are written for
 * and where a call's arguments are in struct seccomp_data.
 */
#ifndef HARNESS_SECCOMP_H
#define HARNESS_SECCOMP_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>

#if defined(__x86_64__)
#define BOX_AUDIT_ARCH AUDIT_ARCH_X86_64
#define BOX_X32_BIT 0x40000000u /* x32's syscall numbers: the same calls under other numbers */
#elif defined(__aarch64__)
#define BOX_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "the workbook's system-call filters know x86-64 and AArch64 only"
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the system-call filters read an argument's low word first (little-endian)"
#endif
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define ARG_HIGH(i) (ARG_LOW(i) + 4)

#endif
