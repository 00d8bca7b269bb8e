// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.26;

/// @title FixtureAccountFactory
/// @notice A minimal smart-account factory for the devnet: CREATE2 deploys a
/// FixtureSmartWallet (ERC-1271, owned by an EOA) at an address known before
/// it exists, so tests can sign as a counterfactual account (ERC-6492).
/// Devnet use only.
/// @dev Compiled by scripts/build-contracts with solc 0.8 into
/// FixtureAccountFactory.hex: the devnet's solc 0.4.26 emits a pre-EIP-1014
/// opcode for create2.
contract FixtureAccountFactory {
    /// @notice FixtureSmartWallet's creation code, given at deployment (it is
    /// a solc 0.4 contract, so it cannot be imported here).
    bytes public walletCode;

    event AccountCreated(address indexed account, address indexed owner, uint256 salt);

    constructor(bytes memory code) {
        walletCode = code;
    }

    /// @notice The account `createAccount(owner, salt)` deploys, deployed or not.
    function getAddress(address owner, uint256 salt) public view returns (address) {
        bytes32 hash = keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, keccak256(initCode(owner))));
        return address(uint160(uint256(hash)));
    }

    /// @notice Deploys `owner`'s account for `salt`; a no-op returning the
    /// address when it already exists (as ERC-4337 factories do).
    function createAccount(address owner, uint256 salt) external returns (address account) {
        account = getAddress(owner, salt);
        if (account.code.length > 0) return account;
        bytes memory code = initCode(owner);
        address created;
        assembly {
            created := create2(0, add(code, 32), mload(code), salt)
        }
        require(created == account, "create2 failed");
        emit AccountCreated(account, owner, salt);
    }

    function initCode(address owner) internal view returns (bytes memory) {
        return abi.encodePacked(walletCode, abi.encode(owner));
    }
}
