//! Wallet error codes the kit acts on: the ones that turn a network switch
//! into an add-chain request (behaviour 3.7), and the ones that mean the user declined.

/// Wallet error codes after which switching becomes an add-chain request (behaviour 3.7).
/// 4902 is EIP-3085's unrecognised chain and 5000 a common wallet default;
/// 32603 is as documented, and its JSON-RPC form -32603 (internal
/// error, which some mobile wallets answer for an unknown chain) counts too.
pub const ADD_CHAIN_TRIGGER_CODES: [i64; 4] = [4902, 5000, 32603, -32603];

/// Whether a wallet-switch error `code` should trigger an add-chain request
/// (behaviour 3.7). The code is a number as JSON and JS carry it; a fraction, NaN or an
/// infinity is never a trigger.
pub fn is_add_chain_trigger(code: f64) -> bool {
    ADD_CHAIN_TRIGGER_CODES.iter().any(|&trigger| trigger as f64 == code)
}

/// Wallet error codes that mean the user declined: EIP-1193's 4001, and the
/// WalletConnect SDK's 5000 (request), 5001 (chains) and 5002 (methods).
pub const USER_REJECTION_CODES: [i64; 4] = [4001, 5000, 5001, 5002];

/// Whether a wallet error `code` says the user declined (a choice to respect,
/// not a failure to report). Outside a network switch, where 5000 triggers an
/// add-chain request first (behaviour 3.7).
pub fn is_user_rejection(code: f64) -> bool {
    USER_REJECTION_CODES.iter().any(|&rejection| rejection as f64 == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Behaviour 3.7: "A wallet-switch error code of 4902, 5000 or 32603 triggers an add-chain request."
    #[test]
    fn add_chain_codes() {
        for (code, yes) in [
            (4902.0, true),
            (5000.0, true),
            (32603.0, true),
            (-32603.0, true),
            (4001.0, false),
            (-4902.0, false),
            (4902.5, false),
            (f64::NAN, false),
            (0.0, false),
        ] {
            assert_eq!(is_add_chain_trigger(code), yes, "{code}");
        }
    }

    #[test]
    fn user_rejection_codes() {
        for (code, yes) in [
            (4001.0, true),
            (5000.0, true),
            (5001.0, true),
            (5002.0, true),
            (4902.0, false),
            (-32603.0, false),
            (4001.5, false),
            (f64::NAN, false),
        ] {
            assert_eq!(is_user_rejection(code), yes, "{code}");
        }
    }
}
