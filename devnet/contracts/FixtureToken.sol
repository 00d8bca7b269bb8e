// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.4.26;

/// @title FixtureToken
/// @notice Minimal mintable ERC-20 with configurable decimals, used for the
/// devnet's 6-decimal "USDC". OpenZeppelin 4.9.6 ships no preset with
/// configurable decimals and its sources need solc ^0.8, while the only
/// compiler available offline is solc-js 0.4.26 — hence this small
/// self-contained contract. Devnet use only.
contract FixtureToken {
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    address public minter;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string _name, string _symbol, uint8 _decimals) public {
        name = _name;
        symbol = _symbol;
        decimals = _decimals;
        minter = msg.sender;
    }

    function transfer(address to, uint256 value) public returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) public returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) public returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "ERC20: insufficient allowance");
        // An infinite approval is never decreased, as in OpenZeppelin's ERC20.
        if (allowed != uint256(-1)) {
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// Same signature as OpenZeppelin's ERC20PresetMinterPauser.mint, so the
    /// deploy script treats both fixture tokens alike.
    function mint(address to, uint256 value) public {
        require(msg.sender == minter, "FixtureToken: caller is not the minter");
        require(to != address(0), "ERC20: mint to the zero address");
        require(totalSupply + value >= totalSupply, "FixtureToken: supply overflow");
        totalSupply += value;
        // Cannot overflow: every balance is bounded by totalSupply.
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(to != address(0), "ERC20: transfer to the zero address");
        require(balanceOf[from] >= value, "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
