// Atomic operations on plain 64-bit words, for the Locking module's `AtomicWord` on
// platforms where `Synchronization.Atomic` cannot be used: Apple platforms below iOS 18,
// macOS 15, tvOS 18, watchOS 11 and visionOS 2 (this package's floors are iOS 15,
// macOS 12, tvOS 15, watchOS 8 and visionOS 1), and Linux builds with
// `-DTALLY_PORTABLE_SYNCHRONIZATION`, which test that path.
//
// The functions are `static inline` over the GCC/Clang `__atomic` builtins, as
// swift-nio's CNIOAtomics and swift-atomics' shims are: Swift inlines them, and with the
// memory order a constant at the call site each compiles to the one instruction (or
// instruction pair) the order needs, as `Synchronization.Atomic` does. This is a target
// of its own, not a package dependency, because the package that apps link must fetch
// nothing else.
//
// `order` is one of the `__ATOMIC_*` constants: 0 relaxed, 2 acquire, 3 release,
// 4 acquire-release, 5 sequentially consistent.

#ifndef CLOCKING_H
#define CLOCKING_H

#include <stdbool.h>
#include <stdint.h>

/// Loads the word at `word` with memory order `order`.
static inline __attribute__((always_inline)) uint64_t
clocking_atomic_load(const uint64_t *_Nonnull word, int order) {
    return __atomic_load_n(word, order);
}

/// Stores `value` in the word at `word` with memory order `order`.
static inline __attribute__((always_inline)) void
clocking_atomic_store(uint64_t *_Nonnull word, uint64_t value, int order) {
    __atomic_store_n(word, value, order);
}

/// Stores `value` in the word at `word` and returns the word it replaced.
static inline __attribute__((always_inline)) uint64_t
clocking_atomic_exchange(uint64_t *_Nonnull word, uint64_t value, int order) {
    return __atomic_exchange_n(word, value, order);
}

/// Stores `desired` in the word at `word` if it holds `*expected`, and returns `true`;
/// otherwise leaves it, stores what it holds in `*expected`, and returns `false`. A strong
/// compare-and-exchange: it does not fail spuriously.
static inline __attribute__((always_inline)) bool
clocking_atomic_compare_exchange(
    uint64_t *_Nonnull word, uint64_t *_Nonnull expected, uint64_t desired, int success_order, int failure_order
) {
    return __atomic_compare_exchange_n(word, expected, desired, false, success_order, failure_order);
}

/// Adds `operand` to the word at `word`, wrapping around on overflow, and returns the word
/// before the addition.
static inline __attribute__((always_inline)) uint64_t
clocking_atomic_fetch_add(uint64_t *_Nonnull word, uint64_t operand, int order) {
    return __atomic_fetch_add(word, operand, order);
}

#endif
