//! Integration tests of `wthor-format`: one test binary, one module per theme.

mod bad_input;
mod props;
mod real_files;

pub(crate) use wthor_test_data::wthor_data;
