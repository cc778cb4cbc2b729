//! Whether the browser tests can run here: `has_browser` is set when Debian's Chromium and
//! ChromeDriver are installed, and `has_nginx` when Debian's nginx is, so that without them
//! the tests say they were ignored rather than passing without running.

fn main() {
    const CHROMIUM: &str = "/usr/bin/chromium";
    const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
    println!("cargo::rustc-check-cfg=cfg(has_browser)");
    // The directory, not the files: a file installed later may carry an older time than
    // this script's last run, while the directory's own time changes whenever an entry
    // comes or goes.
    println!("cargo::rerun-if-changed=/usr/bin");
    if std::path::Path::new(CHROMIUM).exists() && std::path::Path::new(CHROMEDRIVER).exists() {
        println!("cargo::rustc-cfg=has_browser");
    }
    // tests/online.rs runs the server on PostgreSQL too when GOGO_TEST_POSTGRES names one.
    println!("cargo::rustc-check-cfg=cfg(has_postgres)");
    println!("cargo::rerun-if-env-changed=GOGO_TEST_POSTGRES");
    if std::env::var_os("GOGO_TEST_POSTGRES").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=has_postgres");
    }
    // tests/nginx.rs runs the documented nginx configuration under Debian's nginx.
    println!("cargo::rustc-check-cfg=cfg(has_nginx)");
    println!("cargo::rerun-if-changed=/usr/sbin");
    if std::path::Path::new("/usr/sbin/nginx").exists() {
        println!("cargo::rustc-cfg=has_nginx");
    }
}
