//! Parsers and writers for the WTHOR file kinds.
//!
//! `wthor-format` knows no Othello rules: it reads and writes bytes.
