//! PyO3 bindings: `workbench._native`.

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__doc__", "TerraFeud native core")?;
    Ok(())
}
