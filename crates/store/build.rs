//! Whether the PostgreSQL half of the store's tests can run: `has_postgres` is set when
//! `GOGO_TEST_POSTGRES` names a database (`.ci/run` starts one), so that without it those
//! tests say they were ignored, and why, rather than passing without running.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_postgres)");
    println!("cargo::rerun-if-env-changed=GOGO_TEST_POSTGRES");
    if std::env::var_os("GOGO_TEST_POSTGRES").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=has_postgres");
    }
}
