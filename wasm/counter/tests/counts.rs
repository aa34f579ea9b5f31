//! The instrumenter on small modules whose counts are known by hand (`src/lib.rs` says what
//! counts as one operation), run by wasmi: a loop of known length, a branch taken or not, a
//! call, a branch out of a block, simd128 and bulk memory.

use aeadbench_counter::{COUNTER_EXPORT, instrument};
use wasmi::{Engine, Linker, Module, Store, Val};

struct Counted {
    store: Store<()>,
    instance: wasmi::Instance,
}

impl Counted {
    fn new(wat: &str) -> Self {
        let plain = wat::parse_str(wat).expect("test module");
        let bytes = instrument(&plain).expect("instrumented");
        let mut config = wasmi::Config::default();
        config.wasm_simd(true);
        let engine = Engine::new(&config);
        let module = Module::new(&engine, &bytes[..]).expect("the copy is valid WebAssembly");
        let mut store = Store::new(&engine, ());
        let instance = Linker::<()>::new(&engine)
            .instantiate_and_start(&mut store, &module)
            .expect("instantiates");
        Counted { store, instance }
    }

    fn ops(&self) -> i64 {
        match self
            .instance
            .get_global(&self.store, COUNTER_EXPORT)
            .expect("the counter is exported")
            .get(&self.store)
        {
            Val::I64(n) => n,
            other => panic!("the counter is an i64, not {other:?}"),
        }
    }

    fn call<P: wasmi::WasmParams, R: wasmi::WasmResults>(&mut self, name: &str, p: P) -> R {
        let f = self
            .instance
            .get_typed_func::<P, R>(&self.store, name)
            .expect("export");
        f.call(&mut self.store, p).expect("runs")
    }
}

#[test]
fn a_loop_counts_its_body_once_per_iteration() {
    let mut m = Counted::new(
        r#"(module (func (export "run") (param $n i32) (local $i i32)
             (loop $l
               local.get $i  i32.const 1  i32.add  local.tee $i
               local.get $n  i32.lt_u  br_if $l)))"#,
    );
    assert_eq!(m.ops(), 0);
    m.call::<i32, ()>("run", 10);
    assert_eq!(m.ops(), 70, "7 operations, 10 iterations");
    m.call::<i32, ()>("run", 1000);
    assert_eq!(m.ops(), 70 + 7000, "exactly linear in the iterations");
}

#[test]
fn a_branch_counts_the_arm_taken() {
    let wat = r#"(module (func (export "pick") (param $c i32) (result i32)
        local.get $c
        if (result i32) i32.const 10 else i32.const 1 i32.const 2 i32.add end
        i32.const 5 i32.add))"#;
    let mut taken = Counted::new(wat);
    assert_eq!(taken.call::<i32, i32>("pick", 1), 15);
    assert_eq!(taken.ops(), 2 + 1 + 2);
    let mut not_taken = Counted::new(wat);
    assert_eq!(not_taken.call::<i32, i32>("pick", 0), 8);
    assert_eq!(not_taken.ops(), 2 + 3 + 2);
}

#[test]
fn a_call_costs_one_and_the_callee_its_body() {
    let mut m = Counted::new(
        r#"(module
             (func $add (param i32 i32) (result i32) local.get 0 local.get 1 i32.add)
             (func (export "calls") (result i32) i32.const 1 i32.const 2 call $add))"#,
    );
    assert_eq!(m.call::<(), i32>("calls", ()), 3);
    assert_eq!(m.ops(), 3 + 3);
}

#[test]
fn code_a_branch_skips_is_not_counted() {
    let mut m = Counted::new(
        r#"(module (func (export "skip") (result i32)
             (block $b i32.const 1 drop br $b i32.const 2 drop)
             i32.const 3))"#,
    );
    assert_eq!(m.call::<(), i32>("skip", ()), 3);
    assert_eq!(
        m.ops(),
        3 + 1,
        "block and end are free; the two after br never run"
    );
}

#[test]
fn a_simd128_operation_counts_one() {
    let mut m = Counted::new(
        r#"(module (func (export "simd") (result i32)
             v128.const i32x4 1 2 3 4  v128.const i32x4 5 6 7 8  i32x4.add  i32x4.extract_lane 3))"#,
    );
    assert_eq!(m.call::<(), i32>("simd", ()), 12);
    assert_eq!(m.ops(), 4);
}

#[test]
fn bulk_memory_operations_count_one_whatever_their_length() {
    let mut m = Counted::new(
        r#"(module (memory 1) (func (export "bulk")
             i32.const 0 i32.const 7 i32.const 100 memory.fill
             i32.const 200 i32.const 0 i32.const 100 memory.copy))"#,
    );
    m.call::<(), ()>("bulk", ());
    assert_eq!(m.ops(), 8);
}

#[test]
fn refuses_what_it_cannot_count_naming_why() {
    assert!(
        instrument(b"not wasm")
            .unwrap_err()
            .contains("not a WebAssembly module")
    );
    let once = instrument(&wat::parse_str("(module (func))").unwrap()).unwrap();
    assert!(
        instrument(&once)
            .unwrap_err()
            .contains("already exports '__aeadbench_ops'")
    );
}
