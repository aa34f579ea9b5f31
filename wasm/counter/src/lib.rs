//! Counts every WebAssembly operation a module executes.
//!
//! [`instrument`] returns a copy of a module with one mutable `i64` global added and exported as
//! [`COUNTER_EXPORT`]; at the entry of each basic block (a straight run of operations that control
//! enters only at its start) the copy adds the block's operation count to it. The count a run
//! reads is then exact and the same in every engine: it depends on the module and its inputs
//! only, never on the machine, the load or the JIT.
//!
//! What counts as one operation: every operator of the WebAssembly instruction set, with these
//! free: `block`, `loop`, `end`, `else` and `nop` (structure, not work). `if` counts (it tests its
//! condition), as do `br`, `br_if`, `br_table`, `return`, `call` and `call_indirect`; a v128
//! operation counts one, as an i32 one does. The counter's own four operations are not counted.
//! Operations of a called function count in that function, so a call costs one plus its body.
//!
//! The same rewrite records what a constant-time check looks at ([`ct`]).
//!
//! No cipher or primitive is implemented here: this crate rewrites modules with walrus.

use walrus::ir::{
    BinaryOp, Binop, Block, Const, GlobalGet, GlobalSet, IfElse, Instr, InstrLocId, InstrSeq,
    InstrSeqId, Loop, Value, VisitorMut,
};
use walrus::{ConstExpr, GlobalId, Module, ValType};

pub mod ct;

// The module's allocator (wasm/heap): an arena, so that rewriting never grows the memory.
#[cfg(feature = "js")]
use aeadbench_heap as _;

/// The name under which the instrumented copy exports its counter (a mutable `i64` global).
pub const COUNTER_EXPORT: &str = "__aeadbench_ops";

/// Whether an operator is free (structure, not work).
fn free(instr: &Instr) -> bool {
    matches!(instr, Instr::Block(_) | Instr::Loop(_))
}

/// Whether control may leave the straight line after this operator: a basic block ends with it.
/// After a nested block, loop or if control arrives from inside it (its end, or a branch out to
/// it), so the operator after one starts a block too; after `br_if`, the fall-through does.
fn ends_block(instr: &Instr) -> bool {
    matches!(
        instr,
        Instr::Block(_)
            | Instr::Loop(_)
            | Instr::IfElse(_)
            | Instr::Br(_)
            | Instr::BrIf(_)
            | Instr::BrTable(_)
            | Instr::Return(_)
            | Instr::ReturnCall(_)
            | Instr::ReturnCallIndirect(_)
            | Instr::Unreachable(_)
            | Instr::Throw(_)
            | Instr::Rethrow(_)
            | Instr::TryTable(_)
    )
}

/// How many operations each basic block of `instrs` holds, with the index it starts at.
pub fn basic_blocks(instrs: &[(Instr, InstrLocId)]) -> Vec<(usize, u64)> {
    let mut blocks = Vec::new();
    let mut start = 0;
    let mut count = 0u64;
    for (i, (instr, _)) in instrs.iter().enumerate() {
        if !free(instr) {
            count += 1;
        }
        if ends_block(instr) {
            blocks.push((start, count));
            start = i + 1;
            count = 0;
        }
    }
    if start < instrs.len() || blocks.is_empty() {
        blocks.push((start, count));
    }
    blocks
}

struct Counter {
    global: GlobalId,
}

impl Counter {
    fn add(&self, n: u64) -> [(Instr, InstrLocId); 4] {
        let loc = InstrLocId::default();
        [
            (
                Instr::GlobalGet(GlobalGet {
                    global: self.global,
                }),
                loc,
            ),
            (
                Instr::Const(Const {
                    value: Value::I64(n as i64),
                }),
                loc,
            ),
            (
                Instr::Binop(Binop {
                    op: BinaryOp::I64Add,
                }),
                loc,
            ),
            (
                Instr::GlobalSet(GlobalSet {
                    global: self.global,
                }),
                loc,
            ),
        ]
    }
}

impl VisitorMut for Counter {
    fn start_instr_seq_mut(&mut self, seq: &mut InstrSeq) {
        let blocks = basic_blocks(&seq.instrs);
        // From the last block to the first, so that earlier indices stay valid.
        for &(at, n) in blocks.iter().rev() {
            if n > 0 {
                let add = self.add(n);
                seq.instrs.splice(at..at, add);
            }
        }
    }
}

/// Every instruction sequence a function body holds (the body, and every block, loop and arm).
fn sequences(func: &walrus::LocalFunction) -> Vec<InstrSeqId> {
    let mut out = vec![func.entry_block()];
    let mut i = 0;
    while i < out.len() {
        for (instr, _) in &func.block(out[i]).instrs {
            match instr {
                Instr::Block(Block { seq }) | Instr::Loop(Loop { seq }) => out.push(*seq),
                Instr::IfElse(IfElse {
                    consequent,
                    alternative,
                }) => {
                    out.push(*consequent);
                    out.push(*alternative);
                }
                _ => {}
            }
        }
        i += 1;
    }
    out
}

/// A copy of `wasm` whose every executed operation adds one to the exported `i64` global
/// [`COUNTER_EXPORT`] (starting at 0). Refuses a module that is not valid WebAssembly, naming
/// what walrus found, or one that already exports that name.
pub fn instrument(wasm: &[u8]) -> Result<Vec<u8>, String> {
    let mut module = Module::from_buffer(wasm)
        .map_err(|e| format!("not a WebAssembly module walrus can read: {e}"))?;
    if module.exports.iter().any(|e| e.name == COUNTER_EXPORT) {
        return Err(format!(
            "the module already exports '{COUNTER_EXPORT}': is it instrumented already?"
        ));
    }
    let global =
        module
            .globals
            .add_local(ValType::I64, true, false, ConstExpr::Value(Value::I64(0)));
    module.exports.add(COUNTER_EXPORT, global);
    let mut counter = Counter { global };
    for (_, func) in module.funcs.iter_local_mut() {
        for seq in sequences(func) {
            counter.start_instr_seq_mut(func.block_mut(seq));
        }
    }
    Ok(module.emit_wasm())
}

/// The instrumenter for JavaScript (the worker's counting pass): bytes in, bytes out, or an
/// error whose message names the problem.
#[cfg(feature = "js")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = instrument)]
pub fn instrument_js(wasm: &[u8]) -> Result<Vec<u8>, wasm_bindgen::JsError> {
    instrument(wasm).map_err(|e| wasm_bindgen::JsError::new(&e))
}

/// The export's name, for JavaScript.
#[cfg(feature = "js")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = counterExport)]
pub fn counter_export() -> String {
    COUNTER_EXPORT.to_string()
}

/// The constant-time trace for JavaScript (ct.rs): a traced copy of `wasm`, its sites named in
/// its custom section, or an error whose message names the problem.
#[cfg(feature = "js")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = traceConstantTime)]
pub fn trace_js(wasm: &[u8]) -> Result<Vec<u8>, wasm_bindgen::JsError> {
    ct::trace(wasm)
        .map(|(bytes, _)| bytes)
        .map_err(|e| wasm_bindgen::JsError::new(&e))
}
