fn main() -> std::process::ExitCode {
    warplint::cli::main()
}
