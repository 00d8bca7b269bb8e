// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.4.26;

/// @title FixtureSmartWallet
/// @notice A minimal contract account for the devnet: ERC-1271 says a
/// signature is valid when the wallet's owner signed the hash. It lets tests
/// exercise contract-wallet signatures (name registration, sign-in) without a
/// full smart-account stack. Devnet use only.
contract FixtureSmartWallet {
    bytes4 internal constant MAGIC = 0x1626ba7e;
    address public owner;

    constructor(address walletOwner) public {
        owner = walletOwner;
    }

    /// @notice ERC-1271: MAGIC when `signature` (65 bytes r ‖ s ‖ v) is the owner's over `hash`.
    function isValidSignature(bytes32 hash, bytes signature) public view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC : bytes4(0xffffffff);
    }

    function () public payable {}
}
