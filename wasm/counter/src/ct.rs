//! Traces what TIMECOP looks at: every value a module lets decide where control goes or which
//! memory it touches.
//!
//! [`trace`] returns a copy of a module in which every executed conditional branch (`if`,
//! `br_if`, `br_table`), every `call_indirect` index, every address loaded from or stored to
//! (SIMD loads, lanes and splats included) and every `memory.fill` / `memory.copy` range folds
//! its value, with the number of its site, into a running hash, the exported `i64` global
//! [`HASH_EXPORT`]. Two runs of one operation on inputs of the same public lengths (size, AAD,
//! nonce) but different secrets (keys, plaintexts, a forged tag) read equal hashes exactly when
//! no secret decided a branch or an address; where they differ, the first event that differs
//! is found by asking the copy to remember the hash and the site of its `n`th event
//! ([`WATCH_EXPORT`], [`WATCH_HASH_EXPORT`], [`WATCH_SITE_EXPORT`]), and the sites are named in
//! the custom section [`SITES_SECTION`] (function, code offset, kind).
//!
//! It checks the WebAssembly, as TIMECOP checks the binary: an engine may still compile it into
//! machine code whose time depends on a value (a division, a multiply on some CPUs), and a trace
//! covers only the inputs tried. `select` is not traced (engines compile it without a branch).
//!
//! No cipher or primitive is implemented here: this crate rewrites modules with walrus.

use walrus::ir::{
    BinaryOp, Call, Const, Instr, InstrLocId, InstrSeqId, LoadSimdKind, LocalGet, LocalSet,
    StoreKind, UnaryOp, Value,
};
use walrus::{ConstExpr, FunctionBuilder, FunctionId, LocalId, Module, ValType};

/// The running hash of every traced event (`i64`, starts at 0).
pub const HASH_EXPORT: &str = "__aeadbench_ct_hash";
/// How many events were traced (`i64`).
pub const EVENTS_EXPORT: &str = "__aeadbench_ct_events";
/// The event to remember (`i64`, 1-based; 0: none), set by the caller before a run.
pub const WATCH_EXPORT: &str = "__aeadbench_ct_watch";
/// The hash right after the watched event (`i64`).
pub const WATCH_HASH_EXPORT: &str = "__aeadbench_ct_watch_hash";
/// The site of the watched event (`i32`, an index into [`SITES_SECTION`]).
pub const WATCH_SITE_EXPORT: &str = "__aeadbench_ct_watch_site";
/// The custom section naming each site: JSON, `[[function, offset, kind], …]` by site number.
pub const SITES_SECTION: &str = "aeadbench.ct.sites";

/// An odd 64-bit multiplier (FNV-1a's prime): a value folded in changes every later hash.
const PRIME: i64 = 0x0000_0100_0000_01b3;

/// A traced place of the code: the function (its name, else `func[index]`), the instruction's
/// offset in the code section, and what is traced there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub function: String,
    pub offset: u32,
    pub kind: &'static str,
}

/// What is traced at an instruction, and how the stack holds it.
enum Traced {
    /// The traced `i32` is on top of the stack (a branch's condition, an index, a load's address).
    Top(&'static str),
    /// An address under a value of this type (a store, a lane load or store).
    UnderValue(&'static str, ValType),
    /// `memory.fill`: destination, value, length (both the destination and the length are traced).
    Fill,
    /// `memory.copy`: destination, source, length (all three traced).
    Copy,
}

fn traced(instr: &Instr) -> Option<Traced> {
    Some(match instr {
        Instr::BrIf(_) => Traced::Top("br_if"),
        Instr::IfElse(_) => Traced::Top("if"),
        Instr::BrTable(_) => Traced::Top("br_table"),
        Instr::CallIndirect(_) => Traced::Top("call_indirect"),
        Instr::Load(_) => Traced::Top("load address"),
        Instr::LoadSimd(l) => match l.kind {
            LoadSimdKind::V128Load8Lane(_)
            | LoadSimdKind::V128Load16Lane(_)
            | LoadSimdKind::V128Load32Lane(_)
            | LoadSimdKind::V128Load64Lane(_) => Traced::UnderValue("load address", ValType::V128),
            LoadSimdKind::V128Store8Lane(_)
            | LoadSimdKind::V128Store16Lane(_)
            | LoadSimdKind::V128Store32Lane(_)
            | LoadSimdKind::V128Store64Lane(_) => {
                Traced::UnderValue("store address", ValType::V128)
            }
            _ => Traced::Top("load address"),
        },
        Instr::Store(s) => Traced::UnderValue(
            "store address",
            match s.kind {
                StoreKind::I32 { .. } | StoreKind::I32_8 { .. } | StoreKind::I32_16 { .. } => {
                    ValType::I32
                }
                StoreKind::I64 { .. }
                | StoreKind::I64_8 { .. }
                | StoreKind::I64_16 { .. }
                | StoreKind::I64_32 { .. } => ValType::I64,
                StoreKind::F32 => ValType::F32,
                StoreKind::F64 => ValType::F64,
                StoreKind::V128 => ValType::V128,
            },
        ),
        Instr::MemoryFill(_) => Traced::Fill,
        Instr::MemoryCopy(_) => Traced::Copy,
        _ => return None,
    })
}

/// The locals the inserted code parks values in (shared by every function: walrus gives each
/// function the locals its body uses).
struct Temps {
    i32a: LocalId,
    i32b: LocalId,
    i64: LocalId,
    f32: LocalId,
    f64: LocalId,
    v128: LocalId,
}

impl Temps {
    fn of(&self, ty: ValType) -> LocalId {
        match ty {
            ValType::I32 => self.i32a,
            ValType::I64 => self.i64,
            ValType::F32 => self.f32,
            ValType::F64 => self.f64,
            _ => self.v128,
        }
    }
}

/// The code inserted before a traced instruction: the traced values folded in, the stack as it was.
fn before(t: &Traced, site: u32, mix: FunctionId, temps: &Temps) -> Vec<Instr> {
    let fold = || {
        [
            Instr::Const(Const {
                value: Value::I32(site as i32),
            }),
            Instr::Call(Call { func: mix }),
        ]
    };
    let set = |local| Instr::LocalSet(LocalSet { local });
    let get = |local| Instr::LocalGet(LocalGet { local });
    match t {
        Traced::Top(_) => fold().to_vec(),
        Traced::UnderValue(_, ty) => {
            let v = temps.of(*ty);
            [vec![set(v)], fold().to_vec(), vec![get(v)]].concat()
        }
        // destination, value, length: the length folded and parked, the value parked, the destination folded.
        Traced::Fill => [
            fold().to_vec(),
            vec![set(temps.i32a), set(temps.i32b)],
            fold().to_vec(),
            vec![get(temps.i32b), get(temps.i32a)],
        ]
        .concat(),
        Traced::Copy => [
            fold().to_vec(),
            vec![set(temps.i32a)],
            fold().to_vec(),
            vec![set(temps.i32b)],
            fold().to_vec(),
            vec![get(temps.i32b), get(temps.i32a)],
        ]
        .concat(),
    }
}

fn kind_of(t: &Traced) -> &'static str {
    match t {
        Traced::Top(k) | Traced::UnderValue(k, _) => k,
        Traced::Fill => "memory.fill range",
        Traced::Copy => "memory.copy range",
    }
}

/// The globals of the trace, and the function that folds one value in and gives it back.
struct Tracer {
    hash: walrus::GlobalId,
    events: walrus::GlobalId,
    watch: walrus::GlobalId,
    watch_hash: walrus::GlobalId,
    watch_site: walrus::GlobalId,
}

fn i64_global(module: &mut Module) -> walrus::GlobalId {
    module
        .globals
        .add_local(ValType::I64, true, false, ConstExpr::Value(Value::I64(0)))
}

/// `mix(value, site) -> value`: hash = (hash ^ (value | site << 32)) · PRIME; events += 1; the
/// watched event's hash and site remembered.
fn add_mix(module: &mut Module, t: &Tracer) -> FunctionId {
    let mut b = FunctionBuilder::new(
        &mut module.types,
        &[ValType::I32, ValType::I32],
        &[ValType::I32],
    );
    let value = module.locals.add(ValType::I32);
    let site = module.locals.add(ValType::I32);
    let mut body = b.func_body();
    body.global_get(t.hash)
        .local_get(value)
        .unop(UnaryOp::I64ExtendUI32)
        .local_get(site)
        .unop(UnaryOp::I64ExtendUI32)
        .i64_const(32)
        .binop(BinaryOp::I64Shl)
        .binop(BinaryOp::I64Or)
        .binop(BinaryOp::I64Xor)
        .i64_const(PRIME)
        .binop(BinaryOp::I64Mul)
        .global_set(t.hash)
        .global_get(t.events)
        .i64_const(1)
        .binop(BinaryOp::I64Add)
        .global_set(t.events)
        .global_get(t.events)
        .global_get(t.watch)
        .binop(BinaryOp::I64Eq)
        .if_else(
            None::<ValType>,
            |then| {
                then.global_get(t.hash)
                    .global_set(t.watch_hash)
                    .local_get(site)
                    .global_set(t.watch_site);
            },
            |_| {},
        )
        .local_get(value);
    b.finish(vec![value, site], &mut module.funcs)
}

/// A copy of `wasm` that traces every branch condition, indirect call index and memory address
/// it executes (module docs), and the sites it traces. Refuses a module walrus cannot read, one
/// traced already, or one with a 64-bit memory (its addresses are not `i32`).
pub fn trace(wasm: &[u8]) -> Result<(Vec<u8>, Vec<Site>), String> {
    let mut module = Module::from_buffer(wasm)
        .map_err(|e| format!("not a WebAssembly module walrus can read: {e}"))?;
    if module.exports.iter().any(|e| e.name == HASH_EXPORT) {
        return Err(format!(
            "the module already exports '{HASH_EXPORT}': is it traced already?"
        ));
    }
    if module.memories.iter().any(|m| m.memory64) {
        return Err("a 64-bit memory: its addresses cannot be traced as i32".into());
    }
    let t = Tracer {
        hash: i64_global(&mut module),
        events: i64_global(&mut module),
        watch: i64_global(&mut module),
        watch_hash: i64_global(&mut module),
        watch_site: module.globals.add_local(
            ValType::I32,
            true,
            false,
            ConstExpr::Value(Value::I32(-1)),
        ),
    };
    for (name, g) in [
        (HASH_EXPORT, t.hash),
        (EVENTS_EXPORT, t.events),
        (WATCH_EXPORT, t.watch),
        (WATCH_HASH_EXPORT, t.watch_hash),
        (WATCH_SITE_EXPORT, t.watch_site),
    ] {
        module.exports.add(name, g);
    }
    let temps = Temps {
        i32a: module.locals.add(ValType::I32),
        i32b: module.locals.add(ValType::I32),
        i64: module.locals.add(ValType::I64),
        f32: module.locals.add(ValType::F32),
        f64: module.locals.add(ValType::F64),
        v128: module.locals.add(ValType::V128),
    };
    let mix = add_mix(&mut module, &t);
    let names: Vec<(FunctionId, String)> = module
        .funcs
        .iter()
        .map(|f| {
            let name = f
                .name
                .clone()
                .unwrap_or_else(|| format!("func[{}]", f.id().index()));
            (f.id(), name)
        })
        .collect();
    let mut sites: Vec<Site> = Vec::new();
    for (id, func) in module.funcs.iter_local_mut() {
        if id == mix {
            continue;
        }
        let function = names
            .iter()
            .find(|(f, _)| *f == id)
            .map(|(_, n)| n.clone())
            .unwrap_or_default();
        for seq in crate::sequences(func) {
            trace_seq(func, seq, &mut sites, &function, mix, &temps);
        }
    }
    let table: Vec<String> = sites
        .iter()
        .map(|s| format!("[{},{},\"{}\"]", json_string(&s.function), s.offset, s.kind))
        .collect();
    module.customs.add(walrus::RawCustomSection {
        name: SITES_SECTION.into(),
        data: format!("[{}]", table.join(",")).into_bytes(),
    });
    Ok((module.emit_wasm(), sites))
}

fn trace_seq(
    func: &mut walrus::LocalFunction,
    seq: InstrSeqId,
    sites: &mut Vec<Site>,
    function: &str,
    mix: FunctionId,
    temps: &Temps,
) {
    let instrs = &mut func.block_mut(seq).instrs;
    let mut out = Vec::with_capacity(instrs.len() * 2);
    for (instr, loc) in instrs.drain(..) {
        if let Some(t) = traced(&instr) {
            let site = sites.len() as u32;
            sites.push(Site {
                function: function.to_string(),
                offset: if loc.is_default() { 0 } else { loc.data() },
                kind: kind_of(&t),
            });
            out.extend(
                before(&t, site, mix, temps)
                    .into_iter()
                    .map(|i| (i, InstrLocId::default())),
            );
        }
        out.push((instr, loc));
    }
    *instrs = out;
}

/// A JSON string literal of `s`.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
