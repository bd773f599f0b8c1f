//! The explorer's Web Worker (see `effectively_once::worker`).
fn main() {
    effectively_once::worker::serve();
}
