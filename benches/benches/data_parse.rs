//! Speed of `auc_data::read_libsvm`: seeded a9a-shaped LIBSVM text (binary and six-decimal values)
//! parsed from memory, plus the real a9a file when `../shared/datasets/a9a.libsvm` exists.
//!
//! Group `auc-data/parse`; IDs `read_libsvm/<input>,n=..,d=..,nnz=..`; `Throughput::Bytes` (input
//! bytes per second). Inputs are built outside the timed closure.

use std::hint::black_box;
use std::path::PathBuf;

use auc_benches::LibsvmText;
use auc_data::{ReadOptions, read_libsvm};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};

fn inputs() -> Vec<(String, Vec<u8>)> {
    let binary = LibsvmText::A9A;
    let real = LibsvmText {
        real_values: true,
        ..LibsvmText::A9A
    };
    let id = |name: &str, t: &LibsvmText| format!("{name},n={},d={},nnz={}", t.n, t.dim, t.nnz);
    let mut out = vec![
        (
            id("a9a-like-binary", &binary),
            binary.generate().into_bytes(),
        ),
        (id("a9a-like-real", &real), real.generate().into_bytes()),
    ];
    let a9a = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/datasets/a9a.libsvm");
    match std::fs::read(&a9a) {
        Ok(bytes) => out.push(("a9a-file,n=32561,d=123".to_string(), bytes)),
        Err(e) => eprintln!("skipping the real a9a file ({}): {e}", a9a.display()),
    }
    out
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("auc-data/parse");
    let opts = ReadOptions::default();
    for (name, bytes) in inputs() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("read_libsvm", name), &bytes, |b, bytes| {
            b.iter(|| read_libsvm(black_box(&bytes[..]), "bench", &opts).expect("valid input"))
        });
    }
    group.finish();
}

/// What `criterion_group!` would generate, without its undocumented public function.
fn benches() {
    let mut c = Criterion::default().configure_from_args();
    parse(&mut c);
}

criterion_main!(benches);
