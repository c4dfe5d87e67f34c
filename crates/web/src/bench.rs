//! The engine's bench in the browser, for comparing wasm speed with native.

use crate::js::{clock, to_js};
use homeostat_engine::nnue::Network;
use serde::Serialize;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// What the bench measured.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BenchJs {
    nodes: f64,
    nps: f64,
    elapsed_ms: f64,
}

/// Runs the engine's bench (its fixed positions to `depth`, 9 when absent): `{nodes, nps, elapsedMs}`,
/// with the hand-crafted evaluation, or with the net whose file bytes are `net` (throws when they are
/// no net). It blocks for seconds: call it in a worker or a test page only.
#[wasm_bindgen]
pub fn bench(depth: Option<u32>, net: Option<Vec<u8>>) -> Result<JsValue, JsError> {
    let depth = depth.unwrap_or(homeostat_engine::bench::DEFAULT_DEPTH).clamp(1, 20);
    let now = clock();
    let report = match net {
        Some(bytes) => {
            let net = Network::from_bytes(&bytes).map_err(|e| JsError::new(&e))?;
            homeostat_engine::bench::bench_net(depth, &now, Arc::new(net))
        }
        None => homeostat_engine::bench::bench(depth, &now),
    };
    Ok(to_js(&BenchJs { nodes: report.nodes as f64, nps: report.nps as f64, elapsed_ms: report.elapsed_ms }))
}
