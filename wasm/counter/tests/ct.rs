//! The constant-time trace (`src/ct.rs`) on planted leaks and on code without one, run by
//! wasmi: a branch on a key bit, a table lookup indexed by a secret, a tag compared byte by byte
//! with an early exit, a store at a secret address; and their constant-time forms, which must
//! read the same trace for every secret. A leak's first differing event is found by its number
//! and named by its site.

use aeadbench_counter::ct::{
    EVENTS_EXPORT, HASH_EXPORT, SITES_SECTION, Site, WATCH_EXPORT, WATCH_HASH_EXPORT,
    WATCH_SITE_EXPORT, trace,
};
use wasmi::{Engine, Linker, Module, Store, Val};

const WAT: &str = r#"(module
  (memory (export "memory") 1)
  (func $branch (export "branch") (param $key i32) (result i32)
    (if (result i32) (i32.and (local.get $key) (i32.const 1))
      (then (i32.const 7)) (else (i32.const 9))))
  (func $masked (export "masked") (param $key i32) (result i32)
    ;; the same choice without a branch: 9 - 2·(key & 1)
    (i32.sub (i32.const 9) (i32.shl (i32.and (local.get $key) (i32.const 1)) (i32.const 1))))
  (func $table (export "table") (param $key i32) (result i32)
    (i32.load8_u offset=256 (i32.and (local.get $key) (i32.const 255))))
  (func $tag_early (export "tag_early") (param $tag i32) (param $good i32) (result i32)
    (local $i i32)
    (block $differ
      (loop $next
        (br_if $differ (i32.ne
          (i32.and (i32.shr_u (local.get $tag) (local.get $i)) (i32.const 255))
          (i32.and (i32.shr_u (local.get $good) (local.get $i)) (i32.const 255))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br_if $next (i32.lt_u (local.get $i) (i32.const 32))))
      (return (i32.const 1)))
    (i32.const 0))
  (func $tag_ct (export "tag_ct") (param $tag i32) (param $good i32) (result i32)
    (i32.eqz (i32.xor (local.get $tag) (local.get $good))))
  (func $store_at (export "store_at") (param $key i32)
    (i32.store (i32.shl (i32.and (local.get $key) (i32.const 15)) (i32.const 2)) (local.get $key)))
  (func $bulk (export "bulk") (param $key i32)
    ;; a secret value filled and copied over public ranges, and a SIMD load at a public address
    (memory.fill (i32.const 512) (local.get $key) (i32.const 64))
    (memory.copy (i32.const 1024) (i32.const 512) (i32.const 64))
    (v128.store (i32.const 2048) (i8x16.add (v128.load (i32.const 512)) (i8x16.splat (local.get $key)))))
)"#;

struct Traced {
    bytes: Vec<u8>,
    sites: Vec<Site>,
}

/// One run of `func(args)` on a fresh instance of the traced copy, watching event `watch`
/// (0: none): the hash, the event count, and the watched event's hash and site.
fn run(t: &Traced, func: &str, args: &[i32], watch: i64) -> (i64, i64, i64, i32) {
    let mut config = wasmi::Config::default();
    config.wasm_simd(true);
    let engine = Engine::new(&config);
    let module = Module::new(&engine, &t.bytes[..]).expect("the copy is valid WebAssembly");
    let mut store = Store::new(&engine, ());
    let instance = Linker::<()>::new(&engine)
        .instantiate_and_start(&mut store, &module)
        .expect("instantiates");
    let global = |store: &Store<()>, name: &str| instance.get_global(store, name).expect(name);
    global(&store, WATCH_EXPORT)
        .set(&mut store, Val::I64(watch))
        .unwrap();
    let f = instance.get_func(&store, func).expect("export");
    let params: Vec<Val> = args.iter().map(|&a| Val::I32(a)).collect();
    let mut results = vec![Val::I32(0); f.ty(&store).results().len()];
    f.call(&mut store, &params, &mut results).expect("runs");
    let i64_of = |store: &Store<()>, name| match global(store, name).get(store) {
        Val::I64(x) => x,
        v => panic!("{name} is {v:?}"),
    };
    let site = match global(&store, WATCH_SITE_EXPORT).get(&store) {
        Val::I32(x) => x,
        v => panic!("site is {v:?}"),
    };
    (
        i64_of(&store, HASH_EXPORT),
        i64_of(&store, EVENTS_EXPORT),
        i64_of(&store, WATCH_HASH_EXPORT),
        site,
    )
}

fn traced() -> Traced {
    let plain = wat::parse_str(WAT).expect("test module");
    let (bytes, sites) = trace(&plain).expect("traced");
    Traced { bytes, sites }
}

/// The first event at which two secrets' traces differ, found by the watched hash (binary
/// search over the event's number), and its site; None when the traces are equal.
fn first_difference<'t>(t: &'t Traced, func: &str, a: &[i32], b: &[i32]) -> Option<&'t Site> {
    let (ha, na, _, _) = run(t, func, a, 0);
    let (hb, nb, _, _) = run(t, func, b, 0);
    if ha == hb && na == nb {
        return None;
    }
    let (mut lo, mut hi) = (1, na.min(nb) + 1); // the first differing event lies in [lo, hi]
    while lo < hi {
        let mid = (lo + hi) / 2;
        if run(t, func, a, mid).2 == run(t, func, b, mid).2 {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    // Past the shorter trace, the longer one's next event is where they part.
    let (_, _, _, site) = run(t, func, if na >= nb { a } else { b }, lo);
    Some(&t.sites[site as usize])
}

#[test]
fn a_branch_on_a_key_bit_is_flagged_at_its_if() {
    let t = traced();
    let s = first_difference(&t, "branch", &[0x1234], &[0x1235]).expect("a leak");
    assert_eq!((s.function.as_str(), s.kind), ("branch", "if"));
}

#[test]
fn the_same_choice_by_arithmetic_reads_one_trace_for_every_key() {
    let t = traced();
    for (a, b) in [(0, 1), (0x1234, 0x1235), (-1, 7)] {
        assert_eq!(first_difference(&t, "masked", &[a], &[b]), None);
    }
}

#[test]
fn a_table_lookup_indexed_by_a_secret_is_flagged_at_its_load() {
    let t = traced();
    let s = first_difference(&t, "table", &[3], &[200]).expect("a leak");
    assert_eq!((s.function.as_str(), s.kind), ("table", "load address"));
    // The same index from different keys is the same address: no difference to see.
    assert_eq!(first_difference(&t, "table", &[3], &[256 + 3]), None);
}

#[test]
fn a_tag_compared_with_an_early_exit_is_flagged_and_a_constant_time_one_is_not() {
    let t = traced();
    let good = 0x1122_3344;
    // A forged tag that differs in its first byte leaves the loop before a valid one does.
    let s = first_difference(&t, "tag_early", &[0x1122_33ff, good], &[good, good]).expect("a leak");
    assert_eq!((s.function.as_str(), s.kind), ("tag_early", "br_if"));
    assert_eq!(
        first_difference(&t, "tag_ct", &[0x1122_33ff, good], &[good, good]),
        None
    );
}

#[test]
fn a_store_at_a_secret_address_is_flagged_at_the_store() {
    let t = traced();
    let s = first_difference(&t, "store_at", &[1], &[2]).expect("a leak");
    assert_eq!((s.function.as_str(), s.kind), ("store_at", "store address"));
}

#[test]
fn secret_values_over_public_ranges_and_addresses_read_one_trace() {
    let t = traced();
    assert_eq!(first_difference(&t, "bulk", &[1], &[0xab]), None);
    let (_, events, _, _) = run(&t, "bulk", &[1], 0);
    // fill: destination and length; copy: destination, source and length; one load, one store.
    assert_eq!(events, 2 + 3 + 2);
}

#[test]
fn equal_secrets_read_equal_traces_run_after_run() {
    let t = traced();
    let first = run(&t, "tag_early", &[5, 9], 0);
    for _ in 0..3 {
        assert_eq!(run(&t, "tag_early", &[5, 9], 0), first);
    }
}

#[test]
fn names_every_site_in_its_custom_section_and_refuses_a_traced_copy() {
    let t = traced();
    let module = walrus::Module::from_buffer(&t.bytes).expect("valid");
    let section = module
        .customs
        .iter()
        .find(|(_, c)| c.name() == SITES_SECTION)
        .expect("the sites' section")
        .1
        .data(&Default::default());
    let text = String::from_utf8(section.into_owned()).unwrap();
    assert!(text.starts_with("[[\"branch\","), "{text}");
    assert_eq!(text.matches("],[").count() + 1, t.sites.len());
    assert!(trace(&t.bytes).unwrap_err().contains("traced already"));
}
