//! timestep-lab's criterion benchmarks live in `benches/` (`cargo bench --bench engine`,
//! `ui`, `feedback`); this library is empty. They are a crate of their own so that the
//! crates a contributor type-checks for Windows, macOS and the web need no C compiler
//! (criterion's `alloca` builds C).
