//! Prints the evaluation trace of the FENs given as arguments (default: the start position).
fn main() {
    let fens: Vec<String> = std::env::args().skip(1).collect();
    let fens = if fens.is_empty() { vec![engine::position::START_FEN.to_string()] } else { fens };
    for fen in fens {
        match engine::Position::from_fen(&fen) {
            Ok(pos) => println!("{fen}\n{}\n", eval::trace(&pos)),
            Err(e) => eprintln!("{fen}: {e}"),
        }
    }
}
